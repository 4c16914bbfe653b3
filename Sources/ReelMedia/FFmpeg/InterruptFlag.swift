import CFFmpeg
import Synchronization

/// Lets another thread abort FFmpeg's blocking I/O (open, read, seek) promptly, and bounds how
/// long one blocking call may take. Installed as the format context's interrupt callback, which
/// FFmpeg polls from the thread doing the I/O.
/// Threading: `abort()` and `setDeadline` from any thread; the callback from the I/O thread.
package final class InterruptFlag: Sendable {
    private let aborted = Atomic<Bool>(false)
    /// Monotonic nanoseconds after which the current blocking call gives up; 0 = no deadline.
    private let deadline = Atomic<UInt64>(0)
    /// Aborting it aborts this one too (work done on behalf of another, which may also be
    /// given up on its own).
    private let parent: InterruptFlag?

    package init(parent: InterruptFlag? = nil) { self.parent = parent }

    package func abort() { aborted.store(true, ordering: .releasing) }
    package var isAborted: Bool { aborted.load(ordering: .acquiring) || parent?.isAborted == true }

    /// Bounds the next blocking calls to `seconds` from now (nil clears the bound).
    package func setDeadline(seconds: Double?) {
        deadline.store(seconds.map { HostTime.now.adding(seconds: $0).nanoseconds } ?? 0, ordering: .relaxed)
    }

    package var shouldInterrupt: Bool {
        if isAborted { return true }
        let limit = deadline.load(ordering: .relaxed)
        return limit != 0 && HostTime.now.nanoseconds > limit
    }

    package var timedOut: Bool {
        let limit = deadline.load(ordering: .relaxed)
        return !isAborted && limit != 0 && HostTime.now.nanoseconds > limit
    }

    /// The C callback record; `self` must outlive every context it is installed in.
    package var callback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<InterruptFlag>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
