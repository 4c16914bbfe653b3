import Foundation
import ReelCommandLine
import ReelEngine
#if canImport(Glibc)
import Glibc
#endif

/// A program the benchmarks run and measure: spawned with posix_spawn, its stdout read as
/// lines stamped with the time they arrived, and reaped with wait4 so that its own CPU time and
/// peak memory come back with its exit status.
/// Threading: owned by the thread that spawned it (not Sendable); every call blocks that thread.
final class ChildProcess {
    enum Destination {
        /// Read by `finish`: stdout as timestamped lines, stderr as a tail for error messages.
        case pipe
        case discard
        /// Appended to a file (a long-lived peer whose output nobody drains).
        case file(String)
    }

    struct Line {
        let text: String
        let at: HostTime
    }

    struct Exit {
        let started: HostTime
        let ended: HostTime
        /// The exit code, or nil when a signal ended it.
        let code: Int32?
        let signal: Int32?
        /// User plus system CPU seconds of the child (and any children it waited for).
        let cpuSeconds: Double
        /// Peak resident set size (ru_maxrss), in MiB.
        let peakRSSMegabytes: Double
        let stdout: [Line]
        let stderrTail: String

        var wallSeconds: Double { ended.seconds(since: started) }
        var succeeded: Bool { code == 0 }

        /// For error messages: how it ended and what it said on stderr (the first line names a
        /// crash's cause, the last lines a clean failure's), shortened.
        var summary: String {
            let how = code.map { "exited with status \($0)" }
                ?? "was killed by signal \(signal ?? 0)\(signal.flatMap { strsignal($0) }.map { " (\(String(cString: $0)))" } ?? "")"
            let lines = stderrTail.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            var said = Array(lines.suffix(2))
            if let first = lines.first, !said.contains(first) { said.insert(first + " …", at: 0) }
            let text = said.joined(separator: " | ")
            return text.isEmpty ? how : "\(how): \(text.prefix(600))"
        }
    }

    let name: String
    let pid: pid_t
    let started: HostTime
    private var stdoutFD: Int32 = -1
    private var stderrFD: Int32 = -1
    private var reaped = false
    /// Output read so far: whole stdout lines, the start of the next one (and when it came),
    /// and the end of stderr.
    private var lines: [Line] = []
    private var pending = Data()
    private var pendingAt = HostTime.now
    private var stderrTail = Data()

    /// Spawns `path` (an absolute path) with `arguments`, inheriting the environment (so
    /// PULSE_SERVER reaches it) but not the tool's ignored SIGPIPE.
    init(path: String, arguments: [String], stdout: Destination = .pipe, stderr: Destination = .pipe) throws(ToolFailure) {
        name = (path as NSString).lastPathComponent
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        // The tool ignores SIGPIPE (SIG_IGN survives exec); a peer must run as it would from a shell.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, sig) }
        var noMask = sigset_t()
        sigemptyset(&noMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &noMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        func route(_ destination: Destination, to fd: Int32) throws(ToolFailure) -> Int32 {
            switch destination {
            case .discard:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
                return -1
            case .file(let logPath):
                posix_spawn_file_actions_addopen(&actions, fd, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
                return -1
            case .pipe:
                var ends: [Int32] = [-1, -1]
                // Close-on-exec on both ends: only the dup2'd copy may reach the child, or a
                // sibling spawned later would hold this pipe open and hide the child's exit.
                // (Glibc's pipe2 is not visible to Swift; the bench spawns from one thread only,
                // so nothing can fork between pipe and fcntl.)
                guard pipe(&ends) == 0 else {
                    throw ToolFailure(code: "internal_error", message: "pipe failed: \(String(cString: strerror(errno)))")
                }
                ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
                posix_spawn_file_actions_adddup2(&actions, ends[1], fd)
                parentEnds.append(ends[0])
                childEnds.append(ends[1])
                return ends[0]
            }
        }
        let out: Int32
        let err: Int32
        do {
            out = try route(stdout, to: 1)
            err = try route(stderr, to: 2)
        } catch {
            (parentEnds + childEnds).forEach { _ = close($0) }
            throw error
        }

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let start = HostTime.now
        let rc = argv.withUnsafeBufferPointer { args in
            posix_spawn(&child, path, &actions, &attributes, args.baseAddress!, environ)
        }
        childEnds.forEach { _ = close($0) }
        guard rc == 0 else {
            parentEnds.forEach { _ = close($0) }
            throw ToolFailure(code: "spawn_failed", message: "cannot start \(path): \(String(cString: strerror(rc)))")
        }
        pid = child
        started = start
        BenchInterrupt.shared.register(child)
        stdoutFD = out
        stderrFD = err
    }

    deinit {
        if !reaped {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            var usage = rusage()
            _ = wait4(pid, &status, 0, &usage)
            BenchInterrupt.shared.unregister(pid)
        }
        closePipes()
    }

    private func closePipes() {
        if stdoutFD >= 0 { close(stdoutFD); stdoutFD = -1 }
        if stderrFD >= 0 { close(stderrFD); stderrFD = -1 }
    }

    /// Whether the child still has a piped stdout or stderr open (it closes them as it exits).
    var isOutputOpen: Bool { stdoutFD >= 0 || stderrFD >= 0 }

    /// Reads the piped output as it comes until `stop` accepts a stdout line (returned), the
    /// child closes its output, or `deadline` passes (nil for both; the child keeps running).
    /// Lines read here are also in `finish`'s result, but `finish`'s `onLine` does not see them.
    func readLines(until deadline: HostTime, stop: (Line) -> Bool) throws(ToolFailure) -> Line? {
        if let line = takeLines(stop: stop) { return line }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while stdoutFD >= 0 || stderrFD >= 0 {
            var fds: [pollfd] = []
            if stdoutFD >= 0 { fds.append(pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)) }
            if stderrFD >= 0 { fds.append(pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)) }
            let remaining = deadline.seconds(since: .now)
            guard remaining > 0 else { return nil }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining * 1000 + 1, 1000)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw ToolFailure(code: "internal_error", message: "poll failed: \(String(cString: strerror(errno)))")
            }
            for entry in fds where entry.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                let at = HostTime.now
                if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if n <= 0 {
                    close(entry.fd)
                    if entry.fd == stdoutFD { stdoutFD = -1 } else { stderrFD = -1 }
                    continue
                }
                if entry.fd == stdoutFD {
                    pending.append(contentsOf: buffer[0..<n])
                    pendingAt = at
                } else {
                    stderrTail.append(contentsOf: buffer[0..<n])
                    if stderrTail.count > 16384 { stderrTail.removeFirst(stderrTail.count - 8192) }
                }
            }
            if let line = takeLines(stop: stop) { return line }
        }
        if !pending.isEmpty {
            let line = Line(text: String(decoding: pending, as: UTF8.self), at: .now)
            pending.removeAll()
            lines.append(line)
            if stop(line) { return line }
        }
        return nil
    }

    /// Moves the whole lines read so far from `pending` to `lines`, up to the first `stop` accepts.
    private func takeLines(stop: (Line) -> Bool) -> Line? {
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Line(text: String(decoding: pending[pending.startIndex..<newline], as: UTF8.self), at: pendingAt)
            pending.removeSubrange(pending.startIndex...newline)
            lines.append(line)
            if stop(line) { return line }
        }
        return nil
    }

    /// Reads the piped output until the child closes it, then reaps the child. `onLine` sees
    /// each stdout line as it arrives. Past `timeout` seconds the child is killed and this
    /// throws `timeout`.
    func finish(timeout: Double, onLine: (Line) -> Void = { _ in }) throws(ToolFailure) -> Exit {
        let deadline = HostTime.now.adding(seconds: timeout)
        _ = try readLines(until: deadline) { line in
            onLine(line)
            return false
        }
        guard stdoutFD < 0 && stderrFD < 0 else { throw killForTimeout(timeout) }

        // The pipes close as the child exits; reap it without blocking forever on one that
        // closed its output and lingers.
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let r = wait4(pid, &status, WNOHANG, &usage)
            if r == pid { break }
            if r < 0 && errno != EINTR {
                reaped = true
                BenchInterrupt.shared.unregister(pid)
                throw ToolFailure(code: "internal_error", message: "wait4 failed: \(String(cString: strerror(errno)))")
            }
            guard deadline.seconds(since: .now) > 0 else { throw killForTimeout(timeout) }
            usleep(100)
        }
        let ended = HostTime.now
        reaped = true
        BenchInterrupt.shared.unregister(pid)
        return Exit(
            started: started, ended: ended,
            code: status & 0x7f == 0 ? (status >> 8) & 0xff : nil,
            signal: status & 0x7f != 0 ? status & 0x7f : nil,
            cpuSeconds: Self.seconds(usage.ru_utime) + Self.seconds(usage.ru_stime),
            peakRSSMegabytes: Double(usage.ru_maxrss) / 1024,   // Linux reports KiB
            stdout: lines,
            stderrTail: String(decoding: stderrTail, as: UTF8.self))
    }

    /// Ends a child that is no longer needed: SIGTERM, then SIGKILL after `grace` seconds.
    func stop(grace: Double = 2) {
        guard !reaped else { return }
        closePipes()
        kill(pid, SIGTERM)
        let deadline = HostTime.now.adding(seconds: grace)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            if deadline.seconds(since: .now) <= 0 {
                kill(pid, SIGKILL)
                _ = wait4(pid, &status, 0, &usage)
                break
            }
            usleep(1000)
        }
        reaped = true
        BenchInterrupt.shared.unregister(pid)
    }

    private func killForTimeout(_ timeout: Double) -> ToolFailure {
        stop(grace: 0.5)
        return ToolFailure(code: "timeout", message: "\(name) did not finish within \(Int(timeout)) s")
    }

    private static func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
}
