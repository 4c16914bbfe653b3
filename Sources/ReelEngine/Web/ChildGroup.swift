import Foundation

/// A program started in a process group of its own (posix_spawn with SETPGROUP), so that
/// stopping it stops whatever it started too; output into files.
/// Threading: one owner thread calls `wait` and `stopAll`; a reaper thread of its own records
/// the exit.
final class ChildGroup: @unchecked Sendable {
    // Safe: `code` is read and written under `lock` only; the rest is immutable.
    let pid: pid_t
    private let lock = NSLock()
    private var code: Int32?
    private let exited = DispatchSemaphore(value: 0)

    private init(pid: pid_t) {
        self.pid = pid
        // The reaper waits for the child the moment it ends.
        Thread.detachNewThread { [self] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            lock.withLock { code = Self.exitStatus(raw) }
            exited.signal()
        }
    }

    var exitStatus: Int32? { lock.withLock { code } }

    /// Starts `arguments[0]` (looked up on PATH); `.webPageNeedsProgram` when it is not there.
    static func spawn(_ arguments: [String], stdout: String, stderr: String) throws(PlayerError) -> ChildGroup {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        if result == ENOENT { throw .webPageNeedsProgram(arguments[0]) }
        guard result == 0 else { throw .internalError("cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
        return ChildGroup(pid: pid)
    }

    /// The exit status once it ends; nil when `timeout` passed or `interrupt` was set first.
    func wait(timeout: Double, interrupt: InterruptFlag) -> Int32? {
        let deadline = DispatchTime.now() + timeout
        // Short slices: a cancelled opening is noticed within a tenth of a second.
        while exitStatus == nil && DispatchTime.now() < deadline && !interrupt.isAborted {
            _ = exited.wait(timeout: min(deadline, .now() + 0.1))
        }
        return exitStatus
    }

    /// Stops the group (the child and what it started): TERM, a second's grace, then KILL.
    func stopAll() {
        kill(-pid, SIGTERM)
        if exitStatus == nil { _ = exited.wait(timeout: .now() + 1) }
        kill(-pid, SIGKILL)
    }

    private static func exitStatus(_ code: Int32) -> Int32 {
        (code & 0x7f) == 0 ? (code >> 8) & 0xff : 128 + (code & 0x7f)
    }
}
