import Foundation

/// PulseAudio's command-line clients (pactl, pacat, parec) run against the test sound server,
/// riding out connections the server turns away for a moment.
///
/// The daemon listens with a backlog of five and accepts at most 64 clients. When many tests
/// start clients at once while it is busy loading sinks, a connection beyond the backlog fails
/// at once (libpulse reports it as "Connection refused") and one made a moment later is
/// accepted; the 65th is "terminated" until another leaves. Neither is what a test is about.
/// Threading: any test thread.
public enum PulseClients {
    private static let attempts = 60

    /// Runs a client that does its work and exits (pactl), again while the server turns it away.
    @discardableResult
    public static func run(_ arguments: [String], server: String? = nil) throws -> Command.Result {
        var attempt = 0
        while true {
            attempt += 1
            let result = try Command.run(arguments, environment: environment(server), check: false)
            if result.status == 0 { return result }
            guard turnedAway(result.errors), attempt < attempts else {
                throw Command.Failure(command: arguments, result: result)
            }
            backOff(attempt)
        }
    }

    /// Starts a client that stays (pacat, parec) and returns once the server lists it among its
    /// clients; started again while the server turns it away. Standard output goes to `output`.
    public static func spawn(_ arguments: [String], server: String? = nil, output: String = "/dev/null") throws -> Int32 {
        var attempt = 0
        while true {
            attempt += 1
            let errors = FileManager.default.temporaryDirectory
                .appendingPathComponent("reel-pulse-client-\(getpid())-\(UUID().uuidString).err").path
            defer { unlink(errors) }
            let pid = try Command.spawnDetached(arguments, environment: environment(server) ?? [:], output: output, errors: errors)
            while Command.isRunning(pid) {
                if try clientProcesses(server).contains(pid) { return pid }
                usleep(20_000)
            }
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            guard turnedAway(said), attempt < attempts else {
                throw Command.Failure(command: arguments, result: .init(status: -1, stdout: Data(), stderr: Data(said.utf8)))
            }
            backOff(attempt)
        }
    }

    /// The process ids of the server's clients ("application.process.id" in `pactl list clients`).
    static func clientProcesses(_ server: String?) throws -> Set<Int32> {
        let listing = try run(["pactl", "list", "clients"], server: server).output
        var pids = Set<Int32>()
        for line in listing.split(separator: "\n") where line.contains("application.process.id = ") {
            if let value = line.split(separator: "\"").dropFirst().first, let pid = Int32(value) { pids.insert(pid) }
        }
        return pids
    }

    static func turnedAway(_ errors: String) -> Bool {
        errors.contains("Connection refused") || errors.contains("Connection terminated")
    }

    private static func environment(_ server: String?) -> [String: String]? {
        server.map { ["PULSE_SERVER": $0] }
    }

    private static func backOff(_ attempt: Int) {
        usleep(UInt32(min(attempt, 10)) * 20_000)
    }
}
