import Foundation

/// A real sound server for the tests: the one `PULSE_SERVER` (or the desktop) names if it
/// answers, else a private PulseAudio daemon with a null sink, started here and stopped when
/// the test process ends.
///
/// A silent low-latency client is kept on the private sink: an idle null sink pre-renders up to
/// two seconds of silence and can only rewind as far as the newest stream's latency, so the
/// first sound of a test could otherwise wait up to 2 s; a real device (or PipeWire) does not.
/// Threading: `ensure()` from any test thread; the first call does the work.
public enum SoundServer {
    private static let server = Once { try startOrFind() }

    /// Makes sure a server answers and libpulse in this process will find it. Returns its address.
    @discardableResult
    public static func ensure() throws -> String { try server.get() }

    private static func answers(_ server: String?) -> Bool {
        var args = ["pactl"]
        if let server { args += ["-s", server] }
        args.append("info")
        return (try? Command.run(args, check: false).status) == 0
    }

    private static func startOrFind() throws -> String {
        if let existing = ProcessInfo.processInfo.environment["PULSE_SERVER"], answers(existing) {
            return existing
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-test-pulse-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let socket = dir.appendingPathComponent("native").path
        let address = "unix:" + socket
        let log = dir.appendingPathComponent("pulse.log").path
        // The daemon limits itself to 256 open files by default. Each client costs it about three
        // and each null sink more, so tests that play many files at once, each into a sink of
        // its own and recorded, ran out: new connections were refused and sinks failed to load.
        let config = dir.appendingPathComponent("daemon.conf")
        try "rlimit-nofile = 4096\n".write(to: config, atomically: true, encoding: .utf8)
        let daemon = try Command.spawnDetached(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--log-target=stderr",
             "--load=module-null-sink sink_name=reel_test rate=48000",
             "--load=module-native-protocol-unix auth-anonymous=1 socket=\(socket)"],
            environment: ["XDG_RUNTIME_DIR": dir.path, "PULSE_RUNTIME_PATH": dir.path, "PULSE_CONFIG": config.path],
            log: log)
        let deadline = Date(timeIntervalSinceNow: 15)
        while !answers(address) {
            guard Command.isRunning(daemon), Date() < deadline else {
                throw Command.Failure(command: ["pulseaudio"], result: .init(status: -1, stdout: Data(),
                    stderr: (try? Data(contentsOf: URL(fileURLWithPath: log))) ?? Data()))
            }
            usleep(50_000)
        }
        setenv("PULSE_SERVER", address, 1)
        let keepAlive = try PulseClients.spawn(["pacat", "--playback", "--latency-msec=20", "--raw", "/dev/zero"],
                                               server: address)
        Reaper.watch([daemon, keepAlive])
        // A new null sink starts with 2 s of silence rendered ahead: the first sound played
        // would wait for it.
        dropRenderedAhead(sink: "reel_test", server: address)
        try waitUntilSettled(sink: "reel_test", server: address)
        return address
    }
}

/// A null sink of a test's own on the test sound server, with a silent low-latency client on it
/// so that it renders in small steps like a sound card, and its monitor to record from.
/// Threading: create, use and stop from one test; `borrow` from any test thread.
public final class PrivateSink: @unchecked Sendable {
    // Safe to send: every stored property is a constant.
    public let name: String
    public let server: String
    private let module: String
    private let keepAlive: Int32
    private let channelMap: String?
    private let pooled: Bool

    /// Loads the sink and waits until the silence a new null sink renders ahead (2 s) is gone
    /// (let go of at once, see `dropRenderedAhead`), so that what is played next is heard
    /// (and recorded) at once.
    /// `channelMap` (PulseAudio's names, "front-left,front-right,...") makes a sink with those
    /// speakers; the default is stereo.
    public convenience init(_ name: String, channelMap: String? = nil) throws {
        try self.init(name, channelMap: channelMap, pooled: false)
    }

    private init(_ name: String, channelMap: String?, pooled: Bool) throws {
        server = try SoundServer.ensure()
        self.name = name
        self.channelMap = channelMap
        self.pooled = pooled
        var arguments = ["pactl", "load-module", "module-null-sink", "sink_name=\(name)", "rate=48000"]
        if let channelMap {
            arguments += ["channels=\(channelMap.split(separator: ",").count)", "channel_map=\(channelMap)"]
        }
        module = try PulseClients.run(arguments, server: server).output.trimmingCharacters(in: .whitespacesAndNewlines)
        keepAlive = try PulseClients.spawn(["pacat", "--playback", "-d", name, "--latency-msec=10", "--raw", "/dev/zero"],
                                           server: server)
        Reaper.watch([keepAlive])
        SoundServer.dropRenderedAhead(sink: name, server: server)
        try SoundServer.waitUntilSettled(sink: name, server: server)
    }

    /// Records the sink's monitor (16-bit, 48 kHz, mono unless told otherwise; interleaved)
    /// into `path` until `stop` is called on the returned process id.
    /// `channelMap` records the sink's own speakers, one channel each, in that order.
    public func record(to path: String, channels: Int = 1, channelMap: String? = nil) throws -> Int32 {
        // Raw samples on standard output as they come (parec's own file writer buffers, and
        // what it holds is lost when it is stopped).
        var arguments = ["parec", "-d", "\(name).monitor", "--format=s16le", "--rate=48000", "--latency-msec=10"]
        if let channelMap {
            arguments += ["--channels=\(channelMap.split(separator: ",").count)", "--channel-map=\(channelMap)"]
        } else {
            arguments.append("--channels=\(channels)")
        }
        return try PulseClients.spawn(arguments, server: server, output: path)
    }

    /// Waits (up to 5 s) until the recording at `path`, from `record(to:)`, holds a sample:
    /// a settled sink's monitor gives silence all the while, so the first comes as soon as the
    /// recorder is connected, and what is played from then on is recorded from its start.
    public func waitUntilRecording(_ path: String) {
        let deadline = Date(timeIntervalSinceNow: 5)
        while Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            if size >= 2 { return }
            usleep(5_000)
        }
    }

    /// Stops a recorder from `record(to:)` and returns its samples.
    public func finish(recorder: Int32, path: String) throws -> [Int16] {
        kill(recorder, SIGINT)
        for _ in 0..<50 where Command.isRunning(recorder) { usleep(20_000) }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        // For a look at what was heard: REEL_TEST_KEEP_AUDIO=DIR keeps each recording there.
        if let keep = ProcessInfo.processInfo.environment["REEL_TEST_KEEP_AUDIO"] {
            try? data.write(to: URL(fileURLWithPath: keep).appendingPathComponent("\(name).s16le"))
        }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Done with the sink: a borrowed one goes back to the pool, suspended, any other is unloaded.
    /// A sink with its keep-alive stream is mixed every 10 ms: a dozen idle ones kept a third
    /// of a core busy in the sound server for the rest of the run, slowing every later test.
    /// Suspended, a null sink renders nothing and its keep-alive waits.
    public func stop() {
        if pooled {
            _ = try? PulseClients.run(["pactl", "suspend-sink", name, "1"], server: server)
            Self.pool.withLock { $0.append(self) }
            return
        }
        unload()
    }

    private func unload() {
        kill(keepAlive, SIGTERM)
        _ = try? PulseClients.run(["pactl", "unload-module", module], server: server)
    }

    // MARK: A pool of settled sinks

    /// Sinks given back by `stop`, idle and settled, for the next test to borrow.
    private static let pool = Locked([PrivateSink]())
    private static let unloadAtExit = Once<Void> {
        atexit {
            for sink in PrivateSink.pool.withLock({ $0 }) { sink.unload() }
        }
    }

    /// A private sink with `channelMap`'s speakers: one a finished test gave back, or a new one.
    /// A new null sink costs a module load, a keep-alive client and the wait for its silence
    /// rendered ahead to go; an idle one given back has nothing ahead, so tests that each need
    /// a clean sink of their own share a few instead of each making one. It is the same as a new one once nothing plays
    /// into it: checked again here (a stream still closing would leave sound rendered ahead).
    public static func borrow(channelMap: String? = nil) throws -> PrivateSink {
        try unloadAtExit.get()
        let idle = pool.withLock { sinks -> PrivateSink? in
            guard let index = sinks.firstIndex(where: { $0.channelMap == channelMap }) else { return nil }
            return sinks.remove(at: index)
        }
        if let idle {
            // Resumed, it renders at its keep-alive's latency with nothing ahead (as a new
            // one does after `dropRenderedAhead`).
            _ = try? PulseClients.run(["pactl", "suspend-sink", idle.name, "0"], server: idle.server)
            try SoundServer.waitUntilSettled(sink: idle.name, server: idle.server)
            return idle
        }
        let name = "reel_sink_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
        return try PrivateSink(name, channelMap: channelMap, pooled: true)
    }
}

extension SoundServer {
    /// Suspends `sink` and resumes it at once: a suspended sink lets go of what it rendered
    /// ahead, and resumed it renders at the latency its streams ask for (the keep-alive's), so
    /// a new sink settles in a moment instead of draining the 2 s of silence it rendered while
    /// no stream asked for less. `waitUntilSettled` still decides; if the server will not
    /// suspend it, the silence drains as before.
    static func dropRenderedAhead(sink: String, server: String) {
        _ = try? PulseClients.run(["pactl", "suspend-sink", sink, "1"], server: server)
        _ = try? PulseClients.run(["pactl", "suspend-sink", sink, "0"], server: server)
    }

    /// Waits (up to 5 s) until `sink` holds less than 50 ms of sound rendered ahead.
    static func waitUntilSettled(sink: String, server: String) throws {
        let deadline = Date(timeIntervalSinceNow: 5)
        while Date() < deadline {
            let listing = try PulseClients.run(["pactl", "list", "sinks"], server: server).output
            if let latency = latency(of: sink, in: listing), latency < 50_000 { return }
            usleep(100_000)
        }
    }

    /// "Latency: N usec" of the sink named `sink` in `pactl list sinks` output.
    static func latency(of sink: String, in listing: String) -> Int? {
        let blocks = listing.components(separatedBy: "\nSink #")
        guard let block = blocks.first(where: { $0.contains("Name: \(sink)\n") }),
              let range = block.range(of: #"Latency: (\d+) usec"#, options: .regularExpression) else { return nil }
        return Int(block[range].split(separator: " ")[1])
    }
}
