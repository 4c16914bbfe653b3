import Foundation

/// A landing under way: a seek's, the opening's, or a gapless follower's first pictures and
/// sound being decoded before anything is shown or heard.
/// Threading: a value held by the control loop.
struct Preroll {
    let request: SeekRequest
    /// The media's first landing: it ends the loading.
    let isInitial: Bool
    /// A retarget: only the picture lands; the sound stays where it was (`audioStale`).
    var videoOnly = false
    let started = HostTime.now
    var videoPts: Double?
    var videoArrived = false
    var audioReady = false
}
