/// Where a player is. Only commands and engine facts move it, through `StateMachine`: nothing
/// open, opening, paused on a picture, playing, waiting for data, at the end, failed, closed,
/// or waiting while a break plays in its place.
/// Threading: a value type.
public enum PlayerState: Sendable, Equatable, CustomStringConvertible {
    /// Nothing loaded yet.
    case idle
    /// Opening and probing; the first frame is being decoded.
    case loading
    /// Loaded and paused, showing a frame.
    case ready
    case playing
    /// Wants to play but is waiting for data.
    case stalled
    /// Played to the end; `play()` starts again from the beginning.
    case ended
    case failed(PlayerError)
    /// Media closed; a new `open` may follow.
    case closed
    /// The main item waits, paused where it was, while an interstitial plays in its place, and
    /// goes on from there after it; see `InterstitialPlayer`.
    case suspended

    public var name: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .ready: "ready"
        case .playing: "playing"
        case .stalled: "stalled"
        case .ended: "ended"
        case .failed: "failed"
        case .closed: "closed"
        case .suspended: "suspended"
        }
    }

    public var description: String {
        if case .failed(let error) = self { return "failed(\(error.code))" }
        return name
    }

    public var error: PlayerError? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// Media is loaded and can be played, sought or stepped.
    public var hasMedia: Bool {
        switch self {
        case .ready, .playing, .stalled, .ended: true
        default: false
        }
    }
}
