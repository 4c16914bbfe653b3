import Foundation

/// Runs an outside program (ffmpeg, nginx, reel-tool) and captures what it prints.
/// Threading: blocking; call from test threads.
public struct Command {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: Data
        public let stderr: Data
        public init(status: Int32, stdout: Data, stderr: Data) {
            self.status = status; self.stdout = stdout; self.stderr = stderr
        }
        public var output: String { String(decoding: stdout, as: UTF8.self) }
        public var errors: String { String(decoding: stderr, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let command: [String]
        public let result: Result
        public init(command: [String], result: Result) { self.command = command; self.result = result }
        public var description: String {
            "\(command.joined(separator: " ")) exited \(result.status): \(result.errors.suffix(2000))"
        }
    }

    /// Runs `arguments` (the first is looked up on PATH) and waits for it to exit.
    /// Spawned and reaped with posix_spawn/waitpid on the calling thread, and output goes
    /// through temporary files: Foundation's Process and pipe readers need dispatch worker
    /// threads, which the synchronous tests themselves occupy on a small machine.
    @discardableResult
    public static func run(_ arguments: [String], environment: [String: String]? = nil,
                    check: Bool = true) throws -> Result {
        let base = FileManager.default.temporaryDirectory
            .appendingPathComponent("reel-cmd-\(getpid())-\(UUID().uuidString)").path
        let outPath = base + ".out", errPath = base + ".err"
        defer { unlink(outPath); unlink(errPath) }
        let pid = try spawn(arguments, environment: environment ?? [:], stdout: outPath, stderr: errPath, newSession: false)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7f) == 0
        let result = Result(status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
                            stdout: contents(outPath), stderr: contents(errPath))
        if check && result.status != 0 { throw Failure(command: arguments, result: result) }
        return result
    }

    /// A captured output file. An empty one is not read: on Linux, Foundation reads a file
    /// whose size is 0 into a 4 KiB buffer it then never frees (LeakSanitizer, scripts/sanitize.sh).
    private static func contents(_ path: String) -> Data {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > 0 else { return Data() }
        return FileManager.default.contents(atPath: path) ?? Data()
    }

    /// Starts a long-running program in its own session; nothing here waits for it, so a test
    /// process can exit while its servers still run. Returns the pid; output goes to `log`.
    public static func spawnDetached(_ arguments: [String], environment: [String: String] = [:],
                              log: String? = nil) throws -> Int32 {
        try spawn(arguments, environment: environment, stdout: log ?? "/dev/null", stderr: log ?? "/dev/null",
                  newSession: true)
    }

    /// Like `spawnDetached(_:environment:log:)`, with standard output going to `output`
    /// (a recorder writing raw data there as it comes) and standard error to `errors`.
    public static func spawnDetached(_ arguments: [String], environment: [String: String] = [:],
                                     output: String, errors: String = "/dev/null") throws -> Int32 {
        try spawn(arguments, environment: environment, stdout: output, stderr: errors, newSession: true)
    }

    private static func spawn(_ arguments: [String], environment: [String: String], stdout: String,
                              stderr: String, newSession: Bool) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Children start with no blocked signals and default handlers: test threads are
        // dispatch workers that block most signals, and a child inheriting that mask would
        // ignore the SIGTERM meant to stop it.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        let setSigmask: Int32 = 0x08, setSigdef: Int32 = 0x04, setSid: Int32 = 0x80  // POSIX_SPAWN_*
        posix_spawnattr_setflags(&attributes, Int16(setSigmask | setSigdef | (newSession ? setSid : 0)))
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        // Looked up on PATH by posix_spawnp itself: through /usr/bin/env, every one of the
        // run's tens of thousands of programs cost a second exec and dynamic link.
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EINVAL) }
        return pid
    }

    public static func isRunning(_ pid: Int32) -> Bool {
        // A child that has died stays a zombie until reaped; reap it if so.
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { return false }
        return kill(pid, 0) == 0
    }

    public static func shellQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    public static func exists(_ program: String) -> Bool {
        (try? run(["sh", "-c", "command -v \(program)"], check: false).status) == 0
    }
}

/// A mutex-guarded value for test helpers. Threading: any thread.
public final class Locked<Value>: @unchecked Sendable {
    // Safe: every access goes through `lock`.
    private var stored: Value
    private let lock = NSLock()
    public init(_ value: Value) { stored = value }
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock(); defer { lock.unlock() }
        return try body(&stored)
    }
    public var value: Value { withLock { $0 } }
}
