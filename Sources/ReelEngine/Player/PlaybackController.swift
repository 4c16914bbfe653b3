import Foundation

/// What a player widget needs from a playback backend. The engine's `Player` conforms; another
/// backend (a cast target, a recorded-session player) can too, without touching the widgets.
/// Threading: every member may be called from any thread; events arrive on the backend's own
/// thread through the sink it was created with.
public protocol PlaybackController: AnyObject, Sendable {
    var state: PlayerState { get }
    var mediaInfo: MediaInfo? { get }
    var duration: Double? { get }
    /// The media time now, in seconds.
    var position: Double { get }
    var volume: Double { get }
    var isMuted: Bool { get }

    func open(_ source: MediaSource)
    /// Opens a path or URL as a person or file manager gives it; what cannot be opened ends
    /// in the failed state like any other load failure.
    func open(_ pathOrURL: String)
    func play()
    func pause()
    func togglePause()
    func seek(to seconds: Double, mode: SeekMode)
    func stepForward()
    func close()
    func setVolume(_ volume: Double)
    func setMuted(_ muted: Bool)
    func setTimeObserverInterval(_ seconds: Double)

    /// The picture to show at `displayTime` (pulled by the host's frame clock).
    /// `refreshInterval` is the display's frame period; frames are chosen to within half of it.
    func frame(for displayTime: HostTime, refreshInterval: Double) -> VideoFrame?

    /// Blocks until a new picture may be available (a freewheeling presenter's idle wait).
    /// Backends without a way to wait sleep briefly.
    func waitForNewFrame(timeout: Double)
}

extension PlaybackController {
    public func waitForNewFrame(timeout: Double) { usleep(UInt32(min(timeout, 0.001) * 1_000_000)) }
}
