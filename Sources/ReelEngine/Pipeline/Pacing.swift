import Foundation

/// How playback is paced: in real time (the sound device or the monotonic clock tells the
/// media time, pictures are shown when due) or freewheeling (every picture once, as fast as
/// they are pulled, the media time being the last picture's: benchmarks and soak tests). The
/// clock is given one (`PlayerConfiguration.freewheel` chooses); the presentation and the
/// silent output ask it through the clock.
/// Threading: any thread; implementations are immutable or lock their own state.
protocol Pacing: Sendable {
    /// The media time when the pacing keeps it itself; nil when the clock's own line counts.
    var ownTime: Double? { get }
    /// The clock was set to `pts` (a seek, a step, a landing).
    func clockSet(to pts: Double)
    /// Moves `screen` on to the picture for `displayTime` from `queue` (between landings).
    func pick(_ screen: inout Screen, from queue: VideoFrameQueue, clock: PlaybackClock, displayTime: HostTime,
              refreshInterval: Double)
    /// The last picture (`last`, or the one on screen) has been shown as long as it takes.
    func lastPictureOver(_ screen: Screen, last: VideoFrame?, at time: Double) -> Bool
    /// The silent output takes what it may from `fifo` now.
    func consumeSilently(_ fifo: AudioFifo, clock: PlaybackClock, scratch: UnsafeMutablePointer<Float>)
    /// How long the silent output waits before looking again (microseconds).
    var silentPollInterval: UInt32 { get }
}

/// What the presentation has on screen.
/// Threading: a value under the presentation's lock.
struct Screen {
    var current: VideoFrame?
    /// `current` has been handed to a presenter.
    var shown = false
    /// Pictures replaced before anyone was shown them, counted by `pick`.
    var dropped = 0
}

extension PlayerConfiguration {
    /// The pacing the switch chooses.
    func makePacing() -> any Pacing { freewheel ? FreewheelPacing() : RealTimePacing() }
}
