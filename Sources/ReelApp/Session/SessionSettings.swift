import ReelGtk

/// The preferences a playback session follows, read when they apply (a change takes effect
/// at the next open, end or close).
/// Threading: main thread only.
@MainActor
protocol SessionSettings: AnyObject {
    /// Opened media starts playing by itself.
    var autoplay: Bool { get }
    /// What opening media with a remembered position does.
    var resumePlayback: ResumeMode { get }
    /// The queue is kept for the next start.
    var rememberQueue: Bool { get }
    /// Closing the window while something plays keeps it playing.
    var backgroundPlayback: Bool { get }
    /// The sound track last chosen for this media, if any.
    func audioChoice(for media: String) -> Int?
}
