import Foundation

/// Pulls frames from a player at a fixed rate, as a display would, for tests and `reel-tool`.
/// Ticks are scheduled on absolute monotonic times, so they do not drift. With `rate` nil it
/// pulls as fast as pictures come (freewheel benchmarks): without pause while new ones are
/// waiting, and asleep until the decoder queues one when none is, so it never takes CPU from
/// the decoder it waits for.
/// Threading: its own thread; `start`/`stop` from one owner thread; `onFrame` runs on the
/// presenter's thread.
public final class HeadlessPresenter: @unchecked Sendable {
    // Safe: `thread` is touched only by the owner in start/stop; the rest is immutable or locked.
    private let player: PlaybackController
    private let rate: Double?
    private let onFrame: (@Sendable (VideoFrame) -> Void)?
    private let stopped = Locked(false)
    private let gap = Locked(0.0)
    private var thread: EngineThread?

    /// The longest time between two looks since `start`, in seconds. A display kept from
    /// looking (a busy machine) misses the pictures due meanwhile, as a starved screen would:
    /// tests that judge which pictures were shown read it to tell that apart from a player's fault.
    public var longestGap: Double { gap.current }

    public init(player: PlaybackController, rate: Double? = 60, onFrame: (@Sendable (VideoFrame) -> Void)? = nil) {
        self.player = player
        self.rate = rate
        self.onFrame = onFrame
    }

    deinit { stop() }

    public func start() {
        guard thread == nil else { return }
        stopped.withLock { $0 = false }
        gap.withLock { $0 = 0 }
        thread = EngineThread(name: "reel.present") { [player, rate, onFrame, stopped, gap] in
            let interval = rate.map { 1 / $0 } ?? 0
            var tick = HostTime.now
            var last: VideoFrame?
            var lastLook: HostTime?
            while !stopped.current {
                let look = HostTime.now
                if let lastLook { gap.withLock { $0 = max($0, look.seconds(since: lastLook)) } }
                lastLook = look
                let shown = player.frame(for: tick, refreshInterval: interval > 0 ? interval : 1.0 / 60)
                // The last picture is held so a new one can never reuse its address.
                let isNew = shown != nil && shown !== last
                if let shown, isNew { onFrame?(shown) }
                if shown != nil { last = shown }
                if interval > 0 {
                    tick = tick.adding(seconds: interval)
                    let now = HostTime.now
                    if tick < now { tick = now }   // fell behind: do not try to catch up in a burst
                    var ts = timespec(tv_sec: Int(tick.nanoseconds / 1_000_000_000),
                                      tv_nsec: Int(tick.nanoseconds % 1_000_000_000))
                    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
                } else {
                    tick = HostTime.now
                    if shown == nil || !isNew { player.waitForNewFrame(timeout: 0.05) }
                }
            }
        }
    }

    public func stop() {
        stopped.withLock { $0 = true }
        if let thread, !thread.isCurrent { thread.join() }
        thread = nil
    }
}
