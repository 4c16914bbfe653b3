import ReelEngine

/// What the player shows, as one observable value on the main thread, and the only code there
/// that turns the player's events into state: the state, what is open, where playback is and
/// how long the media is, the speed, the sound, the subtitles, what of a stream is on disk, a
/// break, the warnings, whether the controls are up. The view hands it each event
/// (`apply`) and the requests it makes that the player answers later (`opening`,
/// `seekRequested`); everyone else — the view's parts, the window, the playback session, the
/// remote — reads it and is told of each change (`observe`), with the moment it was when it
/// was one (played to the end, the next item, a landing, a warning). Nobody on the main thread
/// reads the player's own state.
/// Threading: main thread only.
@MainActor
public final class PlayerModel {
    public internal(set) var state: PlayerState = .idle
    /// What is open: its name as shown, and the source when it is one Reel parsed.
    public internal(set) var sourceName: String?
    public internal(set) var source: MediaSource?
    /// What probing found (nil until the media is loaded).
    public internal(set) var mediaInfo: MediaInfo?
    /// A picture of what is open has reached the screen (a paused picture is there to look at).
    public internal(set) var pictureShown = false
    public internal(set) var timeline = Timeline()
    /// Media seconds per second of playback.
    public internal(set) var speed = 1.0
    public internal(set) var sound = Sound()
    public internal(set) var subtitles = Subtitles()
    /// What of streamed media is on disk (nil: not a stream, or nothing known yet).
    public internal(set) var buffered: DownloadProgress?
    /// A break plays in the media's place (nil: none).
    public internal(set) var breakTime: BreakTime?
    /// What the player does to interlaced pictures (nil until it says, and once the media goes).
    public internal(set) var deinterlacing: DeinterlaceStatus?
    /// The A-B loop the player holds over the item (nil: none; a start alone is a mark).
    public internal(set) var loop: LoopSpan?
    /// What the player warned of since the media opened, oldest first.
    public internal(set) var warnings: [PlayerWarning] = []
    /// The controls are up over the picture (the view sets it as they show and hide).
    public var controlsVisible = false {
        didSet { if controlsVisible != oldValue { tell(Change(aspects: .controls, moment: nil, previousState: state)) } }
    }

    /// How the person has shaped the picture (the window sets it; the movie view draws it).
    public var shape = PictureShape.plain {
        didSet { if shape != oldValue { tell(Change(aspects: .shape, moment: nil, previousState: state)) } }
    }

    /// The video equalizer (the window sets it; the movie view draws with it). It lasts the
    /// session, as mpv's does, across files.
    public var equalizer = Equalizer.neutral {
        didSet { if equalizer != oldValue { tell(Change(aspects: .equalizer, moment: nil, previousState: state)) } }
    }

    private let observers = ObserverList<Change>()

    public init() {}

    // MARK: Derived

    /// Something plays: the media, or a break in its place; a stall still counts (it plays on
    /// once data comes).
    public var isPlaying: Bool { state == .playing || state == .stalled || state == .suspended }
    /// Media is loaded: it can be played, sought, stepped.
    public var hasMedia: Bool { state.hasMedia }
    public var inBreak: Bool { breakTime != nil }
    public var hasVideo: Bool { mediaInfo?.videoStream != nil }
    public var frameRate: Double? { mediaInfo?.videoStream?.frameRate }
    public var position: Double { timeline.position }
    public var duration: Double? { timeline.duration }

    /// Where playback is at `now` (`Clock.now`): the last reported position carried on at the
    /// playing speed, within the media's length. The player reports its time a few times a
    /// second; a remote asking between reports gets where it is, not where it was.
    public func livePosition(now: Double) -> Double {
        guard state == .playing, breakTime == nil else { return timeline.position }
        let carried = timeline.position + max(0, now - timeline.reportedAt) * speed
        return min(carried, timeline.duration ?? .infinity)
    }

    /// Where a relative seek starts from: the seek asked for and not landed yet, else where
    /// playback is.
    public func seekBase(now: Double) -> Double { timeline.seekTarget ?? livePosition(now: now) }

    // MARK: Observing

    /// Calls `observer` after every change of the model, with what changed, until the token goes.
    /// Observers are told in the order they came: the view's own parts first (it made the model),
    /// then whoever embeds the view.
    public func observe(_ observer: @escaping @MainActor (Change) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    /// Calls `observer` with `property`'s new value each time it changes, until the token goes.
    public func observe<Value: Equatable>(_ property: KeyPath<PlayerModel, Value>,
                                          _ observer: @escaping @MainActor (Value) -> Void) -> ObservationToken {
        var last = self[keyPath: property]
        return observers.add { [unowned self] _ in
            let now = self[keyPath: property]
            guard now != last else { return }
            last = now
            observer(now)
        }
    }

    func tell(_ change: Change) { observers.notify(change) }
}
