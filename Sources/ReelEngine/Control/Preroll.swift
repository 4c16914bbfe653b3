import Foundation

/// A landing under way: a seek's, the opening's, or a gapless follower's first pictures and
/// sound being decoded before anything is shown or heard (what has arrived is the slot's
/// `video` and `audio` status).
/// Threading: a value held by the control loop.
struct Preroll {
    let request: SeekRequest
    /// The media's first landing: it ends the loading.
    let isInitial: Bool
    let started = HostTime.now
}
