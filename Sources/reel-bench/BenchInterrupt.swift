import Foundation
import ReelCommandLine

/// Ends a bench cleanly on Ctrl+C or SIGTERM: the children it started are killed (a paused
/// mpv waiting on its IPC socket would otherwise outlive it) and the tool reports
/// `interrupted` like any other failure, instead of dying by the signal.
/// Threading: the signal handler runs on a dispatch queue; the child list is guarded by a
/// lock, hence @unchecked Sendable.
final class BenchInterrupt: @unchecked Sendable {
    static let shared = BenchInterrupt()

    private let lock = NSLock()
    private var children: Set<pid_t> = []
    private var directories: Set<String> = []
    private var sources: [DispatchSourceSignal] = []

    /// Takes over SIGINT and SIGTERM for the rest of the run.
    func install() {
        lock.lock()
        defer { lock.unlock() }
        guard sources.isEmpty else { return }
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [self] in fire(sig) }
            source.resume()
            sources.append(source)
        }
    }

    func register(_ pid: pid_t) { lock.lock(); children.insert(pid); lock.unlock() }
    func unregister(_ pid: pid_t) { lock.lock(); children.remove(pid); lock.unlock() }

    /// A scratch directory to remove if the run is cut short.
    func register(directory: String) { lock.lock(); directories.insert(directory); lock.unlock() }
    func unregister(directory: String) { lock.lock(); directories.remove(directory); lock.unlock() }

    private func fire(_ sig: Int32) {
        lock.lock()
        let (pids, scratch) = (children, directories)
        lock.unlock()
        for pid in pids { kill(pid, SIGKILL) }
        for directory in scratch { try? FileManager.default.removeItem(atPath: directory) }
        Output.error(code: "interrupted", message: "bench stopped by signal \(sig) before it finished")
        // _exit: the player threads may be mid-work; nothing left is worth flushing.
        _exit(2)
    }
}
