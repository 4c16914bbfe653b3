import Foundation

/// The control loop's track bookkeeping: subtitle loading threads, the person's subtitle and
/// audio choices and preferences.
/// Threading: confined to the control thread, except `state`, which is thread-safe itself.
final class TrackControl: @unchecked Sendable {
    // Safe: everything but `state` is used only on the control thread (see above).
    let state = SubtitleState()
    var jobs: [EngineThread] = []
    /// Aborts the reading of the media's own streams (and its network waits) when it closes.
    var stopLoading = InterruptFlag()
    /// Set before reopening for another audio stream: the loader plays this one.
    var pendingAudioStream: Int?
    /// Set before reopening with a sound file of its own: the loader plays it.
    var pendingExternalAudio: MediaSource?
    /// Set before reopening a web page: the quality (yt-dlp format id) to play.
    var pendingWebFormat: String?
    /// The subtitle choice to keep across that reopening (its track origin, and whether the
    /// person made it).
    var carriedOver: (origin: SubtitleTrack.Origin?, personChose: Bool)?
    var personChose = false
    var preferredLanguages: [String] = []
    var preferredAudioLanguages: [String] = []
    var charset: String?
    var nextExternalId = 1000
}
