import ReelEngine

/// What the player view shows, as one observable value on the main thread: the state, where
/// playback is and how long the media is, what is open and its tracks, the volume, the speed,
/// what of a stream is on disk, and whether the controls are up. The view feeds it once from
/// the player's events; any number of observers watch it (`observe`), each told after every
/// change, in the order they came, with nothing to chain. One-off moments (played to the end,
/// the next item started, a warning) are not state: they come as events (`observeEvents`).
/// Threading: main thread only.
@MainActor
public final class PlayerModel {
    public private(set) var state: PlayerState = .idle
    public private(set) var position = 0.0
    public private(set) var duration: Double?
    public private(set) var mediaInfo: MediaInfo?
    public private(set) var subtitleTracks: [SubtitleTrack] = []
    public private(set) var selectedSubtitleTrack: SubtitleTrack?
    public private(set) var volume = 1.0
    public private(set) var isMuted = false
    public private(set) var speed = 1.0
    /// What of streamed media is on disk (nil: not a stream, or nothing known yet).
    public private(set) var buffered: DownloadProgress?
    /// A break plays in the media's place.
    public private(set) var inBreak = false
    /// The controls are up over the picture (the view sets it as they show and hide).
    public var controlsVisible = false {
        didSet { if controlsVisible != oldValue { changed() } }
    }

    private let observers = ObserverList<PlayerModel>()
    private let eventObservers = ObserverList<PlayerEvent>()

    public init() {}

    /// Calls `observer` after every change of the model, until the token goes.
    public func observe(_ observer: @escaping @MainActor (PlayerModel) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    /// Calls `observer` with `property`'s new value each time it changes, until the token goes.
    public func observe<Value: Equatable>(_ property: KeyPath<PlayerModel, Value>,
                                          _ observer: @escaping @MainActor (Value) -> Void) -> ObservationToken {
        var last = self[keyPath: property]
        return observers.add { model in
            let now = model[keyPath: property]
            guard now != last else { return }
            last = now
            observer(now)
        }
    }

    /// Calls `observer` with every event of the player, after the model has taken it in.
    public func observeEvents(_ observer: @escaping @MainActor (PlayerEvent) -> Void) -> ObservationToken {
        eventObservers.add(observer)
    }

    /// Takes in one event of the player: the model changes (observers told once), then the
    /// event goes to those watching events.
    public func apply(_ event: PlayerEvent) {
        if update(with: event) { changed() }
        eventObservers.notify(event)
    }

    private func changed() { observers.notify(self) }

    /// Whether anything changed.
    private func update(with event: PlayerEvent) -> Bool {
        switch event {
        case .stateChanged(_, let to):
            guard to != state else { return false }
            state = to
            if to == .idle || to == .closed { clearMedia() }
            return true
        case .mediaLoaded(let info), .audioStreamChanged(let info):
            mediaInfo = info
            if let known = info.duration { duration = known }
            return true
        case .durationKnown(let known):
            guard known != duration else { return false }
            duration = known
            return true
        case .time(let now, let known):
            guard !inBreak else { return false }
            let changed = now != position || (known != nil && known != duration)
            position = now
            if let known { duration = known }
            return changed
        case .seekCompleted(let now):
            position = now
            return true
        case .nextItemStarted:
            // The next item took over: what belonged to the one before goes.
            position = 0
            duration = nil
            buffered = nil
            subtitleTracks = []
            selectedSubtitleTrack = nil
            return true
        case .subtitleTracksChanged(let tracks):
            subtitleTracks = tracks
            return true
        case .subtitleChanged(_, let to):
            selectedSubtitleTrack = to
            return true
        case .volumeChanged(let level, let muted):
            guard level != volume || muted != isMuted else { return false }
            volume = level
            isMuted = muted
            return true
        case .speedChanged(let rate):
            guard rate != speed else { return false }
            speed = rate
            return true
        case .downloadProgress(let progress):
            buffered = progress
            return true
        case .interstitialStarted:
            inBreak = true
            return true
        case .interstitialEnded:
            inBreak = false
            return true
        default:
            return false
        }
    }

    private func clearMedia() {
        position = 0
        duration = nil
        mediaInfo = nil
        buffered = nil
        subtitleTracks = []
        selectedSubtitleTrack = nil
        inBreak = false
    }
}
