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
        let daemon = try Command.spawnDetached(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--log-target=stderr",
             "--load=module-null-sink sink_name=reel_test rate=48000",
             "--load=module-native-protocol-unix auth-anonymous=1 socket=\(socket)"],
            environment: ["XDG_RUNTIME_DIR": dir.path, "PULSE_RUNTIME_PATH": dir.path], log: log)
        let deadline = Date(timeIntervalSinceNow: 15)
        while !answers(address) {
            guard Command.isRunning(daemon), Date() < deadline else {
                throw Command.Failure(command: ["pulseaudio"], result: .init(status: -1, stdout: Data(),
                    stderr: (try? Data(contentsOf: URL(fileURLWithPath: log))) ?? Data()))
            }
            usleep(50_000)
        }
        setenv("PULSE_SERVER", address, 1)
        let keepAlive = try Command.spawnDetached(["pacat", "--playback", "--latency-msec=20", "--raw", "/dev/zero"],
                                                  environment: ["PULSE_SERVER": address])
        reap(when: getpid(), exits: [daemon, keepAlive])
        return address
    }

    /// Stops helper processes once the test process is gone, whichever way it ends.
    public static func reap(when parent: Int32, exits children: [Int32]) {
        let pids = children.map(String.init).joined(separator: " ")
        _ = try? Command.spawnDetached(["sh", "-c", "while kill -0 \(parent) 2>/dev/null; do sleep 1; done; kill \(pids) 2>/dev/null"])
    }
}
