import Foundation

/// Decoded pictures waiting for their presentation time (a handful, so memory stays flat), and
/// the ones already shown while paused (a `FrameTape`), so that back steps and short seeks land
/// without decoding. Frames from an older seek serial are refused, so stale pictures never
/// reach the screen. A buffer only: a seek ahead of what is decoded moves it to the new serial
/// while the decoder is steered on by its own `VideoDecoderSteering`.
/// Threading: `push`/`pushPast`/`markEndOfStream` from the video decoder thread;
/// `reset`/`reach`/`serve`/`strip`/`abort`/`setPastLimit` from the control thread; `first`/`popFirst`
/// from the presentation side. All state is locked.
final class VideoFrameQueue: @unchecked Sendable {
    enum PushResult {
        case queued
        /// Stale frame (its decoder may have been retargeted meanwhile), or the queue is gone.
        case refused
    }

    // Safe: all state is guarded by `condition`.
    private let condition = NSCondition()
    private var tape = FrameTape()
    private let capacity: Int
    /// The seek serial whose frames are accepted (`SeekCoordinator.serial`): set by `reset` and
    /// by a retarget, compared against every frame pushed.
    private var serial = 0
    /// The serial whose last frame the decoder has delivered (marks the end, not an order).
    private var endOfStreamSerial = -1
    private var aborted = false
    /// Called (outside the lock) when the first frame of a serial arrives.
    private let firstFrameArrived: @Sendable (_ serial: Int, _ pts: Double) -> Void
    /// The serial whose first frame (or end) was already reported, so each landing hears once.
    private var announcedSerial = -1
    /// When the running clock reaches a media time (nil while it is frozen): lets a full queue
    /// nobody takes pictures from (a hidden or minimised window) drop the ones long past their
    /// time, waking when the oldest falls that far behind rather than looking now and then.
    private let clockReaches: @Sendable (Double) -> HostTime?
    /// Told of every picture queued (when the control loop asked) and of the end.
    private let progress: DecodeProgress?
    /// Pictures dropped unseen because nothing took them in time.
    private(set) var unwatchedDrops = 0
    /// How far behind the clock a waiting picture may fall before it is dropped unseen: beyond
    /// the frame or so that a presenter still shows late rather than skips (it would drop it
    /// too), near enough that pictures taken again are about the ones for now.
    static let unwatchedLateness = 0.1

    init(capacity: Int, clockReaches: @escaping @Sendable (Double) -> HostTime? = { _ in nil },
         progress: DecodeProgress? = nil, firstFrameArrived: @escaping @Sendable (Int, Double) -> Void) {
        self.clockReaches = clockReaches
        self.progress = progress
        self.capacity = capacity
        self.firstFrameArrived = firstFrameArrived
    }

    /// Waits for room, then queues the frame.
    @discardableResult
    func push(_ frame: VideoFrame) -> PushResult {
        condition.lock()
        while tape.futureCount >= capacity && frame.serial == serial && !aborted {
            // With nobody taking pictures the decoder would stop here, then the demuxer once
            // its queues fill, and the sound with it. Pictures far past their time go instead.
            // Woken by a picture taken, a reset, the end, or the clock starting (`clockStarted`);
            // while it runs, also when the oldest picture falls too far behind.
            guard let oldest = tape.firstFuture, let due = clockReaches(oldest.pts + Self.unwatchedLateness) else {
                condition.wait()
                continue
            }
            let now = HostTime.now
            if due <= now {
                _ = tape.takeFuture()
                unwatchedDrops += 1
                continue
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: due.seconds(since: now)))
        }
        guard frame.serial == serial && !aborted else { condition.unlock(); return .refused }
        tape.appendFuture(frame)
        let announce = announcedSerial != serial
        announcedSerial = serial
        condition.broadcast()
        condition.unlock()
        if announce { firstFrameArrived(frame.serial, frame.pts) }
        progress?.decoded()
        return .queued
    }

    /// Keeps a picture decoded before a seek's landing as part of the past (for back steps).
    func pushPast(_ frame: VideoFrame) {
        condition.lock()
        if frame.serial == serial && !aborted { tape.appendPast(frame) }
        condition.unlock()
    }

    /// The decoder delivered its last frame for `ended`; false when the queue has moved on to
    /// another serial (the decoder then looks for a retarget it has not taken yet).
    @discardableResult
    func markEndOfStream(serial ended: Int) -> Bool {
        condition.lock()
        guard ended == serial else { condition.unlock(); return false }
        endOfStreamSerial = serial
        let announce = endOfStreamSerial == serial && announcedSerial != serial
        if announce { announcedSerial = serial }
        let current = serial
        condition.broadcast()
        condition.unlock()
        // A serial that ends without any frame still has to end its preroll.
        if announce { firstFrameArrived(current, .nan) }
        progress?.ended()
        return true
    }

    /// Empties the queue for a new seek; frames of older serials are refused from now on.
    func reset(serial: Int) {
        condition.lock()
        self.serial = serial
        tape.clear()
        condition.broadcast()
        condition.unlock()
    }

    /// How an exact seek to `request` could be served without the demuxer (it only looks):
    /// `.landed` when the picture for its target is already decoded; `.retargeted` when it is
    /// still ahead of the decoder and `retargetWorthIt(end of what is decoded)` says decoding on
    /// is cheaper than seeking.
    func reach(_ request: SeekRequest, retargetWorthIt: (Double) -> Bool) -> WithinReach {
        condition.lock()
        defer { condition.unlock() }
        return lockedReach(request, retargetWorthIt: retargetWorthIt).reach
    }

    private func lockedReach(_ request: SeekRequest, retargetWorthIt: (Double) -> Bool) -> (reach: WithinReach, at: Int?) {
        guard !aborted else { return (.miss, nil) }
        let wholeStream = endOfStreamSerial == serial
        if let i = tape.position(of: request.target, isWholeStream: wholeStream) { return (.landed, i) }
        guard !wholeStream, let end = tape.end, request.target >= end - 1e-6, retargetWorthIt(end) else { return (.miss, nil) }
        return (.retargeted, nil)
    }

    /// Serves an exact seek without the demuxer as `reach` finds it now: the decoded picture
    /// becomes current (returned; the serial does not change), or, when `retargets`, the
    /// decoder's frames become `request.serial`'s (`steer(from: old serial)` tells the decoder
    /// before any frame of it is refused as stale).
    func serve(_ request: SeekRequest, retargets: Bool, retargetWorthIt: (Double) -> Bool,
               steer: (_ from: Int) -> Void) -> (reach: WithinReach, landed: VideoFrame?) {
        condition.lock()
        defer { condition.unlock() }
        let (reach, position) = lockedReach(request, retargetWorthIt: retargetWorthIt)
        switch reach {
        case .landed:
            let frame = tape.move(to: position!)
            condition.broadcast()
            return (.landed, frame)
        case .retargeted where retargets:
            steer(serial)
            serial = request.serial
            if request.fillsPast {
                tape.futureIntoPast()   // the decoder keeps every picture on its way: still one strip
            } else {
                tape.clear()   // the decoder may skip frames on its way: the strip would have holes
            }
            condition.broadcast()
            return (.retargeted, nil)
        case .retargeted, .miss:
            return (.miss, nil)
        }
    }

    /// The times of the pictures held (the past, the one on screen last) and waiting, and
    /// whether the decoder has delivered its last one: what the seek coordinator plans on.
    var strip: (past: [DecodedPictures.Picture], future: [DecodedPictures.Picture], decoderEnded: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (tape.past.map { ($0.pts, $0.duration) }, tape.future.map { ($0.pts, $0.duration) },
                endOfStreamSerial == serial)
    }

    /// The picture before the one on screen, from the past; nil when it is not held.
    func stepBack() -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        guard !aborted else { return nil }
        let frame = tape.stepBack()
        if frame != nil { condition.broadcast() }
        return frame
    }

    func setPastLimit(_ limit: FrameTape.Limit) {
        condition.lock()
        tape.setLimit(limit)
        condition.unlock()
    }

    /// The clock started running: a full queue waiting for room looks again at how late its
    /// oldest picture is.
    func clockStarted() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    func abort() {
        condition.lock()
        aborted = true
        tape.clear()
        condition.broadcast()
        condition.unlock()
    }

    var droppedUnwatched: Int { condition.lock(); defer { condition.unlock() }; return unwatchedDrops }

    var first: VideoFrame? { condition.lock(); defer { condition.unlock() }; return tape.firstFuture }

    /// The last picture waiting (nil when none is).
    var last: VideoFrame? { condition.lock(); defer { condition.unlock() }; return tape.future.last }

    func popFirst() -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        let frame = tape.takeFuture()
        if frame != nil { condition.broadcast() }
        return frame
    }

    var count: Int { condition.lock(); defer { condition.unlock() }; return tape.futureCount }

    /// How many shown pictures are held for back steps (for tests and tools).
    var pastCount: Int { condition.lock(); defer { condition.unlock() }; return tape.past.count }

    /// Blocks until a picture is queued (or the queue ends, or `timeout` passes).
    func waitForFrame(timeout: Double) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while tape.futureCount == 0 && !aborted && endOfStreamSerial != serial {
            if !condition.wait(until: deadline) { return }
        }
    }

    /// The decoder has delivered its last frame for the current serial.
    var reachedEnd: Bool { condition.lock(); defer { condition.unlock() }; return endOfStreamSerial == serial }

    var currentSerial: Int { condition.lock(); defer { condition.unlock() }; return serial }
}
