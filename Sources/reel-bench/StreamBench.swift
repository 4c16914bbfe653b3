import Foundation
import ReelCommandLine
import ReelEngine

/// `bench stream`: remote media through a slow link (run the fault proxy in front of the
/// server; scripts/stream-bench.sh sets up 50 ms and 20 Mbit/s): time to the first frame,
/// an exact seek into a part not fetched yet, and the bytes the server sent for one full play
/// plus 20 seeks (as fast as decoding goes), and for playing it again in a new player (Reel
/// keeps its disk cache; mpv's cache lives in memory), beside mpv with `--cache=yes`. Every Reel run
/// starts from an empty cache folder of its own. A DASH manifest's URL is measured the same
/// way (scripts/stream-bench.sh --dash). Bytes come from the proxy's counters
/// (`--proxy-stats`), not from the player under test.
/// Threading: runs on the calling thread; players' events are read through recorders.
struct StreamBench {
    let url: String
    let compare: Bool
    let seeks: Int
    let seed: UInt64
    let proxyStats: String?

    private let timeout = 120.0

    func run() throws -> [String: Any] {
        let source = try MediaSource(parsing: url)
        guard source.isRemote else {
            throw ToolFailure(code: "usage", message: "bench stream measures an http(s) URL: \(url)")
        }
        let mpvPath = compare ? try Peer.mpv.locate() : nil
        var result: [String: Any] = ["bench": "stream", "url": url, "seeks": seeks, "seed": seed]

        let startup = try reelStartupAndSeek(source)
        result["first_frame_ms"] = Output.round(startup.firstFrame, 1)
        result["uncached_seek_ms"] = Output.round(startup.seek, 1)
        Output.note("bench stream: reel first frame \(Output.round(startup.firstFrame, 1)) ms, seek to 80 % \(Output.round(startup.seek, 1)) ms")
        let (reelBytes, length, reelReplay) = try reelBytesForPlayAndSeeks(source)
        result["replay_bytes_fetched"] = reelReplay as Any
        if let reelBytes { result["bytes_fetched"] = reelBytes }
        result["file_bytes"] = length as Any
        if let reelBytes, let length { result["bytes_ratio"] = Output.round(Double(reelBytes) / Double(length), 3) }
        Output.note("bench stream: reel fetched \(reelBytes.map(String.init) ?? "?") bytes of \(length.map(String.init) ?? "?")")

        if let mpvPath {
            let mpv = try mpvStartupAndSeek(mpvPath)
            result["mpv_first_frame_ms"] = Output.round(mpv.firstFrame, 1)
            result["mpv_uncached_seek_ms"] = Output.round(mpv.seek, 1)
            Output.note("bench stream: mpv first frame \(Output.round(mpv.firstFrame, 1)) ms, seek \(Output.round(mpv.seek, 1)) ms")
            if let mpvBytes = try mpvBytesForPlayAndSeeks(mpvPath) {
                result["mpv_bytes_fetched"] = mpvBytes
                result["mpv_replay_bytes_fetched"] = try mpvReplayBytes(mpvPath) as Any
                if let length { result["mpv_bytes_ratio"] = Output.round(Double(mpvBytes) / Double(length), 3) }
                Output.note("bench stream: mpv fetched \(mpvBytes) bytes")
            }
            result["ratio_first_frame"] = benchRatio(startup.firstFrame, mpv.firstFrame) as Any
            result["ratio_uncached_seek"] = benchRatio(startup.seek, mpv.seek) as Any
        }
        return result
    }

    // MARK: - Reel

    private func freshCache() -> StreamCacheOptions {
        var options = StreamCacheOptions()
        var template = Array("/tmp/reel-bench-cache-XXXXXX".utf8CString)
        if let made = mkdtemp(&template) {
            let dir = String(cString: made)
            BenchInterrupt.shared.register(directory: dir)
            options.directory = dir + "/streams"
        }
        return options
    }

    private func dropCache(_ options: StreamCacheOptions) {
        guard let dir = options.directory.map({ ($0 as NSString).deletingLastPathComponent }) else { return }
        try? FileManager.default.removeItem(atPath: dir)
        BenchInterrupt.shared.unregister(directory: dir)
    }

    private func player(_ cache: StreamCacheOptions, freewheel: Bool) -> (Player, PlayerEventRecorder, HeadlessPresenter) {
        var configuration = PlayerConfiguration()
        configuration.audioOutput = .null
        configuration.streamCache = cache
        configuration.freewheel = freewheel
        configuration.autoplay = freewheel
        let log = PlayerEventRecorder()
        let player = Player(configuration: configuration, events: log.sink)
        let presenter = HeadlessPresenter(player: player)
        presenter.start()
        return (player, log, presenter)
    }

    /// Open → first picture shown; then a paused exact seek to 80 % → landed.
    private func reelStartupAndSeek(_ source: MediaSource) throws -> (firstFrame: Double, seek: Double) {
        let cache = freshCache()
        defer { dropCache(cache) }
        let (player, log, presenter) = self.player(cache, freewheel: false)
        defer { presenter.stop(); player.close() }
        let clock = Stopwatch()
        player.open(source)
        try wait(log, "Reel's first frame") { if case .firstFrameShown = $0 { return true }; return false }
        let firstFrame = clock.milliseconds
        let duration = try durationOf(player)
        let mark = log.count
        let seekClock = Stopwatch()
        player.seek(to: duration * 0.8, mode: .exact)
        try wait(log, from: mark, "Reel's seek") { if case .seekCompleted = $0 { return true }; return false }
        return (firstFrame, seekClock.milliseconds)
    }

    /// Plays to the end as fast as decoding goes, then seeks to `seeks` random points.
    private func reelBytesForPlayAndSeeks(_ source: MediaSource) throws -> (Int?, Int?, Int?) {
        let cache = freshCache()
        defer { dropCache(cache) }
        let before = try servedBytes()
        let (player, log, presenter) = self.player(cache, freewheel: true)
        player.open(source)
        try wait(log, "Reel to play to the end") { if case .playedToEnd = $0 { return true }; return false }
        let duration = try durationOf(player)
        for target in SeekBench.targets(count: seeks, duration: duration, seed: seed) {
            let mark = log.count
            player.seek(to: target, mode: .exact)
            try wait(log, from: mark, "Reel's seek to \(target)") { if case .seekCompleted = $0 { return true }; return false }
        }
        // What the cache holds: the file, or a DASH manifest with every segment that was played.
        let held = StreamCache(options: cache).list().compactMap(\.length)
        let length = held.isEmpty ? nil : Int(held.reduce(0, +))
        presenter.stop()
        player.close()
        let after = try servedBytes()
        // Again, in a new player on the same cache (as after quitting and starting Reel again).
        let (again, againLog, againPresenter) = self.player(cache, freewheel: true)
        again.open(source)
        try wait(againLog, "Reel to play to the end again") { if case .playedToEnd = $0 { return true }; return false }
        againPresenter.stop()
        again.close()
        let replay = try servedBytes()
        return (before.flatMap { b in after.map { $0 - b } }, length, after.flatMap { a in replay.map { $0 - a } })
    }

    private func durationOf(_ player: Player) throws -> Double {
        guard let d = player.mediaInfo?.duration, d > 1 else {
            throw ToolFailure(code: "usage", message: "bench stream needs media longer than 1 s with a known duration")
        }
        return d
    }

    private func wait(_ log: PlayerEventRecorder, from: Int = 0, _ what: String, _ match: (PlayerEvent) -> Bool) throws {
        guard let (event, _) = log.wait(from: from, timeout: timeout, { match($0) || { if case .stateChanged(_, .failed) = $0 { return true }; return false }($0) }) else {
            throw ToolFailure(code: "timeout", message: "\(what) did not happen within \(Int(timeout)) s")
        }
        if case .stateChanged(_, .failed(let error)) = event { throw error }
    }

    /// The proxy's count of bytes sent, once it has stopped moving: a transfer a closed player
    /// started may still be draining through the proxy, and must count for the phase that
    /// caused it, not the next one.
    private func servedBytes() throws -> Int? {
        guard proxyStats != nil else { return nil }
        var last = try readServedBytes()
        for _ in 0..<50 {
            usleep(100_000)
            let now = try readServedBytes()
            if now == last { return now }
            last = now
        }
        return last
    }

    private func readServedBytes() throws -> Int? {
        guard let proxyStats else { return nil }
        let data = try Data(contentsOf: URL(fileURLWithPath: proxyStats))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["bytes"] as? Int
    }

    // MARK: - mpv

    private func mpv(_ path: String, extra: [String]) throws -> (ChildProcess, MPVClient, String) {
        var template = Array("/tmp/reel-bench-mpv-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ToolFailure(code: "internal_error", message: "cannot create a directory for mpv's socket")
        }
        let directory = String(cString: made)
        BenchInterrupt.shared.register(directory: directory)
        let socketPath = directory + "/ipc.sock"
        let child = try ChildProcess(
            path: path,
            arguments: ["--no-config", "--idle=no", "--vo=null", "--ao=null", "--hr-seek=yes", "--cache=yes",
                        "--keep-open=yes", "--input-ipc-server=\(socketPath)"] + extra + [url],
            stdout: .file(directory + "/mpv.log"), stderr: .file(directory + "/mpv.log"))
        return (child, try MPVClient(socketPath: socketPath, timeout: 10), directory)
    }

    private func finish(_ child: ChildProcess, _ client: MPVClient, _ directory: String) {
        try? client.send(["quit"], requestID: 0)
        child.stop(grace: 2)
        try? FileManager.default.removeItem(atPath: directory)
        BenchInterrupt.shared.unregister(directory: directory)
    }

    /// Process start → first `playback-restart` (paused); then an exact seek to 80 %.
    private func mpvStartupAndSeek(_ path: String) throws -> (firstFrame: Double, seek: Double) {
        let clock = Stopwatch()
        let (child, client, directory) = try mpv(path, extra: ["--pause"])
        defer { finish(child, client, directory) }
        let deadline = HostTime.now.adding(seconds: timeout)
        let first = try client.wait(deadline: deadline) { $0.event == "playback-restart" }
        let firstFrame = first.at.seconds(since: clock.start) * 1000
        let duration = try mpvDuration(client)
        return (firstFrame, try mpvSeek(client, to: duration * 0.8, id: 2))
    }

    private func mpvDuration(_ client: MPVClient) throws -> Double {
        try client.send(["get_property", "duration"], requestID: 1)
        let reply = try client.wait(deadline: HostTime.now.adding(seconds: timeout)) { $0.requestID == 1 }
        guard let d = reply.object["data"] as? Double, d > 1 else {
            throw ToolFailure(code: "peer_failed", message: "mpv gave no duration for \(url)")
        }
        return d
    }

    private func mpvSeek(_ client: MPVClient, to target: Double, id: Int) throws -> Double {
        let clock = Stopwatch()
        try client.send(["seek", target, "absolute+exact"], requestID: id)
        var seeking = false
        let restart = try client.wait(deadline: HostTime.now.adding(seconds: timeout),
                                      skipped: { if $0.event == "seek" { seeking = true } }) {
            $0.event == "playback-restart" && seeking
        }
        return restart.at.seconds(since: clock.start) * 1000
    }

    /// A new mpv playing the URL to the end, untimed.
    private func mpvReplayBytes(_ path: String) throws -> Int? {
        guard let before = try servedBytes() else { return nil }
        let (child, client, directory) = try mpv(path, extra: ["--untimed"])
        try client.send(["observe_property", 1, "eof-reached"], requestID: 1)
        _ = try client.wait(deadline: HostTime.now.adding(seconds: timeout * 3)) {
            $0.event == "property-change" && ($0.object["name"] as? String) == "eof-reached" && ($0.object["data"] as? Bool) == true
        }
        finish(child, client, directory)
        return try servedBytes().map { $0 - before }
    }

    /// Plays to the end untimed, then the same seeks as Reel's.
    private func mpvBytesForPlayAndSeeks(_ path: String) throws -> Int? {
        guard let before = try servedBytes() else { return nil }
        let (child, client, directory) = try mpv(path, extra: ["--untimed"])
        try client.send(["observe_property", 1, "eof-reached"], requestID: 1)
        _ = try client.wait(deadline: HostTime.now.adding(seconds: timeout * 3)) {
            $0.event == "property-change" && ($0.object["name"] as? String) == "eof-reached" && ($0.object["data"] as? Bool) == true
        }
        let duration = try mpvDuration(client)
        for (i, target) in SeekBench.targets(count: seeks, duration: duration, seed: seed).enumerated() {
            _ = try mpvSeek(client, to: target, id: 10 + i)
        }
        finish(child, client, directory)
        return try servedBytes().map { $0 - before }
    }
}
