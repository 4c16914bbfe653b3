/// The one place that decides which state follows which: a transition table keyed by the
/// current state and what happened. Anything not in the table is refused.
/// Threading: pure values and functions.
enum StateMachine {
    /// What can move the state: commands from the host, and facts from the engine.
    enum Input: String, Sendable, CaseIterable {
        // Commands (a host may veto these through `shouldChangeState`)
        case open, play, pause, seek, close
        // Engine facts (not vetoable: they describe what already happened)
        case loaded, stall, unstall, reachEnd, fail

        var isCommand: Bool {
            switch self {
            case .open, .play, .pause, .seek, .close: true
            default: false
            }
        }
    }

    enum Kind: String, Sendable, CaseIterable {
        case idle, loading, ready, playing, stalled, ended, failed, closed
        /// Reported by `InterstitialPlayer` around a player, never entered by one itself.
        case suspended
    }

    static let table: [Kind: [Input: Kind]] = [
        .idle:    [.open: .loading, .close: .closed, .fail: .failed],
        .loading: [.open: .loading, .loaded: .ready, .fail: .failed, .close: .closed],
        .ready:   [.open: .loading, .play: .playing, .fail: .failed, .close: .closed, .reachEnd: .ended],
        .playing: [.open: .loading, .pause: .ready, .stall: .stalled, .reachEnd: .ended,
                   .fail: .failed, .close: .closed],
        .stalled: [.open: .loading, .unstall: .playing, .pause: .ready, .reachEnd: .ended,
                   .fail: .failed, .close: .closed],
        .ended:   [.open: .loading, .play: .playing, .seek: .ready, .fail: .failed, .close: .closed],
        .failed:  [.open: .loading, .close: .closed],
        .closed:  [.open: .loading, .fail: .failed],
        .suspended: [.open: .loading, .fail: .failed, .close: .closed],
    ]

    static func kind(of state: PlayerState) -> Kind {
        switch state {
        case .idle: .idle
        case .loading: .loading
        case .ready: .ready
        case .playing: .playing
        case .stalled: .stalled
        case .ended: .ended
        case .failed: .failed
        case .closed: .closed
        case .suspended: .suspended
        }
    }

    /// The state after `input` in `state`, or nil when the table does not allow it.
    static func next(from state: PlayerState, on input: Input, error: PlayerError? = nil) -> PlayerState? {
        guard let target = table[kind(of: state)]?[input] else { return nil }
        switch target {
        case .idle: return .idle
        case .loading: return .loading
        case .ready: return .ready
        case .playing: return .playing
        case .stalled: return .stalled
        case .ended: return .ended
        case .failed: return .failed(error ?? .internalError("unknown failure"))
        case .closed: return .closed
        case .suspended: return .suspended
        }
    }
}
