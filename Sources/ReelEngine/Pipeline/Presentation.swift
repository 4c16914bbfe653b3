import Foundation

/// Picks the picture to show for a display time and keeps the one on screen. Presentation is
/// pulled: the window's frame clock (or the headless presenter) asks, the clock answers.
/// A frame that is replaced before anyone was shown it counts as dropped; a frame less than
/// about one frame late is shown late instead (a late display tick is not worth a skip).
/// Threading: `frame(for:)` from the presenting thread; `land`/`step`/`stepBack`/`reach`/`serve` from the control
/// thread. Guarded by one lock, always taken before the queue's own.
final class Presentation: @unchecked Sendable {
    // Safe: all mutable state is guarded by `lock`.
    private let lock = NSLock()
    private let queue: VideoFrameQueue
    /// The decoder filling `queue`, steered ahead by an exact seek within reach.
    private let steering: VideoDecoderSteering
    private let clock: PlaybackClock
    private var current: VideoFrame?
    private var currentShown = false
    /// A seek's first frame is awaited: nothing moves on screen until the control thread
    /// places it (`land`).
    private var landing = false
    private(set) var statistics = PresentationStatistics()
    private let frameShown: @Sendable (VideoFrame, _ driftSeconds: Double?, _ first: Bool) -> Void
    private var everShown = false
    /// Whether every shown frame is reported, or only the first (reports cost the control
    /// thread a wakeup each).
    var reportsEveryFrame: Bool {
        get { lock.lock(); defer { lock.unlock() }; return everyFrame }
        set { lock.lock(); everyFrame = newValue; lock.unlock() }
    }
    private var everyFrame = false

    init(queue: VideoFrameQueue, steering: VideoDecoderSteering, clock: PlaybackClock,
         frameShown: @escaping @Sendable (VideoFrame, Double?, Bool) -> Void) {
        self.queue = queue
        self.steering = steering
        self.clock = clock
        self.frameShown = frameShown
    }

    /// The frame to show at `displayTime`. A frame is chosen when its time is within half a
    /// refresh interval of the display time, so the error is at most half a refresh either way.
    func frame(for displayTime: HostTime, refreshInterval: Double) -> VideoFrame? {
        var shownNow: (VideoFrame, Double?, Bool)?
        lock.lock()
        // A seek's landing frame is the control thread's to place.
        if !landing {
            var screen = Screen(current: current, shown: currentShown)
            clock.pacing.pick(&screen, from: queue, clock: clock, displayTime: displayTime,
                              refreshInterval: refreshInterval)
            current = screen.current
            currentShown = screen.shown
            statistics.dropped += screen.dropped
        }
        if let frame = current, !currentShown {
            currentShown = true
            statistics.shown += 1
            var drift: Double? = nil
            if let now = clock.running(at: displayTime) {
                drift = frame.pts - now
                statistics.record(drift: drift!)
            }
            if everyFrame || !everShown { shownNow = (frame, drift, !everShown) }
            everShown = true
        }
        let result = current
        lock.unlock()
        if let (frame, drift, first) = shownNow { frameShown(frame, drift, first) }
        return result
    }

    /// After a seek that flushes the decoder: wait for its first frame; a retarget not yet
    /// taken by the decoder is void.
    func awaitLanding() {
        lock.lock()
        landing = true
        steering.cancel()
        lock.unlock()
    }

    /// During a landing: `frame`, the landing's own picture decoded ahead elsewhere, goes on
    /// screen now; the landing replaces it with the same picture when it is decoded.
    func showAhead(_ frame: VideoFrame) {
        lock.lock()
        defer { lock.unlock() }
        guard landing else { return }
        current = frame
        currentShown = false
    }

    /// The seek's first frame is decoded: it goes on screen whatever its time.
    @discardableResult
    func land() -> VideoFrame? {
        lock.lock()
        defer { lock.unlock() }
        landing = false
        guard let frame = queue.popFirst() else { return current }
        current = frame
        currentShown = false
        return frame
    }

    /// Shows the next decoded frame (frame stepping). Nil when none is decoded yet.
    func step() -> VideoFrame? {
        lock.lock()
        defer { lock.unlock() }
        guard !landing, let next = queue.popFirst() else { return nil }
        current = next
        currentShown = false
        return next
    }

    /// How an exact seek could be served from what is decoded (see `VideoFrameQueue.reach`);
    /// only between landings.
    func reach(_ request: SeekRequest, retargetWorthIt: (Double) -> Bool) -> WithinReach {
        lock.lock()
        defer { lock.unlock() }
        guard !landing else { return .miss }
        return queue.reach(request, retargetWorthIt: retargetWorthIt)
    }

    /// An exact seek served from what is decoded, or handed on to the decoder without a
    /// flush when `retargets` (see `VideoFrameQueue.serve`). Only between landings.
    func serve(_ request: SeekRequest, retargets: Bool, retargetWorthIt: (Double) -> Bool) -> WithinReach {
        lock.lock()
        defer { lock.unlock() }
        guard !landing else { return .miss }
        let (reach, landed) = queue.serve(request, retargets: retargets, retargetWorthIt: retargetWorthIt) { from in
            steering.retarget(.init(from: from, request: request))
        }
        switch reach {
        case .landed:
            current = landed
            currentShown = false
        case .retargeted:
            landing = true
        case .miss:
            break
        }
        return reach
    }

    /// Shows the picture before the one on screen when it is still held; nil otherwise.
    func stepBack() -> VideoFrame? {
        lock.lock()
        defer { lock.unlock() }
        guard !landing, let frame = queue.stepBack() else { return nil }
        current = frame
        currentShown = false
        return frame
    }

    var currentFrame: VideoFrame? { lock.lock(); defer { lock.unlock() }; return current }

    /// True once the last frame has been shown as long as the pacing wants it at `time` (real
    /// time: its full duration; freewheel: at all).
    func finished(at time: Double) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !landing, queue.reachedEnd else { return false }
        return clock.pacing.lastPictureOver(Screen(current: current, shown: currentShown), last: queue.last, at: time)
    }

    /// The media time at which the pictures decoded so far are over (the last one waiting, or
    /// the one on screen, ends); nil during a landing or with no picture at all. The end of
    /// the media and a starving decoder come no sooner than this.
    var decodedUntil: Double? {
        lock.lock()
        defer { lock.unlock() }
        guard !landing, let last = queue.last ?? current else { return nil }
        return last.pts + last.duration
    }

    /// No frame is waiting although the one on screen has run out: the decoder is starved.
    func starving(at time: Double) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !landing, !queue.reachedEnd, queue.first == nil else { return false }
        guard let current else { return true }
        return time > current.pts + current.duration + 0.05
    }

    var statisticsSnapshot: PresentationStatistics { lock.lock(); defer { lock.unlock() }; return statistics }
}

/// Counts of what reached the screen, and how far from its time each frame was shown.
public struct PresentationStatistics: Sendable, Equatable {
    public var shown = 0
    public var dropped = 0
    /// |frame pts − clock| at first display, in milliseconds (bounded sample).
    public private(set) var driftMilliseconds: [Double] = []

    mutating func record(drift seconds: Double) {
        if driftMilliseconds.count < 200_000 { driftMilliseconds.append(abs(seconds) * 1000) }
    }

    public func driftPercentile(_ p: Double) -> Double? {
        guard !driftMilliseconds.isEmpty else { return nil }
        let sorted = driftMilliseconds.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    public var driftMax: Double? { driftMilliseconds.max() }
}
