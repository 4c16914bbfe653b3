import Foundation

/// Stops the helper processes a test process started (sound server, web servers, desktops)
/// once the test process is gone, whichever way it ends. One watcher process per test process,
/// told of each helper as it starts: a watcher per helper, each waking every second to look,
/// had grown to a hundred by the end of a run and cost a tenth of the machine in forks alone.
/// Threading: `watch` from any thread; it appends under the lock.
public enum Reaper {
    private static let lock = NSLock()
    /// The list of "pid start-time" lines the watcher reads when the test process has gone.
    nonisolated(unsafe) private static var list: String?

    /// Stops each of `children` when this process has gone, if it is still the process started
    /// here (the same start time): pids are given out again (this machine's pid_max is 32768,
    /// and a run starts tens of thousands of processes), and a helper stopped earlier in the run
    /// has left its pid to someone else: the next test run, or whatever ran the tests.
    public static func watch(_ children: [Int32]) {
        let lines = children.compactMap { pid in startTime(of: pid).map { "\(pid) \($0)\n" } }.joined()
        guard !lines.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        guard let list = list ?? startWatcher() else { return }
        guard let file = FileHandle(forWritingAtPath: list) else { return }
        defer { try? file.close() }
        _ = try? file.seekToEnd()
        try? file.write(contentsOf: Data(lines.utf8))
    }

    /// Starts the watcher: it waits without forking (`tail --pid` looks once a second), then
    /// stops every helper on the list that is still the one started here.
    private static func startWatcher() -> String? {
        let path = NSTemporaryDirectory() + "reel-test-helpers-\(getpid()).txt"
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        // Field 22 of /proc/PID/stat, counted after the parenthesised name (which may hold spaces).
        let started = "started() { sed 's/^.*) //' /proc/$1/stat 2>/dev/null | cut -d' ' -f20; }"
        let script = "\(started); tail --pid=\(getpid()) -f /dev/null; "
            + "while read -r pid start; do [ \"$(started \"$pid\")\" = \"$start\" ] && kill \"$pid\" 2>/dev/null; done < '\(path)'; "
            + "rm -f '\(path)'"
        guard (try? Command.spawnDetached(["sh", "-c", script])) != nil else { return nil }
        list = path
        return path
    }

    /// When `pid` started, in clock ticks since boot (field 22 of /proc/PID/stat), or nil if it
    /// is gone.
    public static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.range(of: ") ", options: .backwards) else { return nil }
        let fields = stat[close.upperBound...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }
}
