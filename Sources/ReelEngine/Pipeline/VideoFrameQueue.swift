import Foundation

/// Decoded pictures waiting for their presentation time: a handful, so memory stays flat.
/// Frames from an older seek serial are refused, so stale pictures never reach the screen.
/// Threading: `push`/`markEndOfStream` from the video decoder thread; `reset`/`abort` from the
/// control thread; `first`/`popFirst` from the presentation side. All state is locked.
final class VideoFrameQueue: @unchecked Sendable {
    // Safe: all state is guarded by `condition`.
    private let condition = NSCondition()
    private var frames = FIFO<VideoFrame>()
    private let capacity: Int
    private var serial = 0
    private var endOfStreamSerial = -1
    private var aborted = false
    /// Called (outside the lock) when the first frame of a serial arrives.
    private let firstFrameArrived: @Sendable (_ serial: Int, _ pts: Double) -> Void
    private var announcedSerial = -1

    init(capacity: Int, firstFrameArrived: @escaping @Sendable (Int, Double) -> Void) {
        self.capacity = capacity
        self.firstFrameArrived = firstFrameArrived
    }

    /// Waits for room, then queues the frame. False when the frame is stale or the queue is gone.
    @discardableResult
    func push(_ frame: VideoFrame) -> Bool {
        condition.lock()
        while frames.count >= capacity && frame.serial == serial && !aborted { condition.wait() }
        guard frame.serial == serial && !aborted else { condition.unlock(); return false }
        frames.append(frame)
        let announce = announcedSerial != serial
        announcedSerial = serial
        condition.broadcast()
        condition.unlock()
        if announce { firstFrameArrived(frame.serial, frame.pts) }
        return true
    }

    func markEndOfStream(serial: Int) {
        condition.lock()
        if serial == self.serial { endOfStreamSerial = serial }
        let announce = serial == self.serial && announcedSerial != serial
        if announce { announcedSerial = serial }
        condition.broadcast()
        condition.unlock()
        // A serial that ends without any frame still has to end its preroll.
        if announce { firstFrameArrived(serial, .nan) }
    }

    /// Empties the queue for a new seek; frames of older serials are refused from now on.
    func reset(serial: Int) {
        condition.lock()
        self.serial = serial
        frames.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    func abort() {
        condition.lock()
        aborted = true
        frames.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    var first: VideoFrame? { condition.lock(); defer { condition.unlock() }; return frames.first }

    func popFirst() -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        let frame = frames.popFirst()
        if frame != nil { condition.broadcast() }
        return frame
    }

    var count: Int { condition.lock(); defer { condition.unlock() }; return frames.count }

    /// Blocks until a picture is queued (or the queue ends, or `timeout` passes).
    func waitForFrame(timeout: Double) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while frames.isEmpty && !aborted && endOfStreamSerial != serial {
            if !condition.wait(until: deadline) { return }
        }
    }

    /// The decoder has delivered its last frame for the current serial.
    var reachedEnd: Bool { condition.lock(); defer { condition.unlock() }; return endOfStreamSerial == serial }

    var currentSerial: Int { condition.lock(); defer { condition.unlock() }; return serial }
}
