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
    /// Media seconds per second of playback, `speedRange` at most; the sound keeps its pitch.
    var speed: Double { get }
    /// Loudness levelling is on (quiet passages raised, loud ones held down).
    var isLevelling: Bool { get }
    /// Pictures shown and dropped, decode errors, sound underruns of the media playing.
    var statistics: PlaybackStatistics { get }

    func open(_ source: MediaSource)
    /// Opens a path or URL as a person or file manager gives it; what cannot be opened ends
    /// in the failed state like any other load failure.
    func open(_ pathOrURL: String)
    /// What follows the current item when it ends by itself, opened ahead so that it takes over
    /// without a gap (`PlayerEvent.nextItemStarted`); nil: nothing follows.
    func setNext(_ source: MediaSource?, audioStream: Int?)
    /// Decodes the exact picture at a time ahead so a seek there shows it at once (nil: not needed).
    func prefetchPicture(at seconds: Double?)
    func play()
    func pause()
    func togglePause()
    func seek(to seconds: Double, mode: SeekMode)
    func stepForward()
    /// Shows the previous picture, pausing first.
    func stepBackward()
    /// A live drag of the scrubber is at `seconds`: show a picture near it as soon as possible
    /// (newest position wins, stale work is abandoned); pauses while dragging.
    func scrub(to seconds: Double)
    /// The drag ended at `seconds`: show the exact frame there.
    func endScrub(at seconds: Double)
    func close()
    func setVolume(_ volume: Double)
    func setMuted(_ muted: Bool)
    /// Changes the playback speed (clamped to `speedRange`); it applies at once, from the
    /// picture on screen, and stays for the next media opened.
    func setSpeed(_ speed: Double)
    /// Loudness levelling on or off: it applies at once while playing, cross-faded without a
    /// gap, and stays for the next media opened; reported back as `PlayerEvent.levellingChanged`.
    func setLevelling(_ on: Bool)
    func setTimeObserverInterval(_ seconds: Double)
    /// The A-B loop over the item playing (nil: none): reaching the span's end from inside it
    /// goes back to its start without a gap; reported back as `PlayerEvent.loopChanged`, and
    /// cleared when the item changes.
    func setLoop(_ span: LoopSpan?)

    /// The picture to show at `displayTime` (pulled by the host's frame clock).
    /// `refreshInterval` is the display's frame period; frames are chosen to within half of it.
    func frame(for displayTime: HostTime, refreshInterval: Double) -> VideoFrame?

    /// Blocks until a new picture may be available (a freewheeling presenter's idle wait).
    /// Backends without a way to wait sleep briefly.
    func waitForNewFrame(timeout: Double)
}

/// The playback speeds a player offers: a quarter to four times normal.
public let speedRange: ClosedRange<Double> = 0.25...4

extension PlaybackController {
    public func waitForNewFrame(timeout: Double) { usleep(UInt32(min(timeout, 0.001) * 1_000_000)) }
}
