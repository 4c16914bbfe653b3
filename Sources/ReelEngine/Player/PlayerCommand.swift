/// What a host asks of a player; queued to the control thread in order.
/// Threading: value types.
enum PlayerCommand: Sendable {
    case open(MediaSource)
    case openFailed(PlayerError)
    case play
    case pause
    case togglePause
    case seek(to: Double, mode: SeekMode)
    case stepForward
    case stepBackward
    case scrub(to: Double)
    case endScrub(at: Double)
    case close
    case setVolume(Double)
    case setMuted(Bool)
    case setSpeed(Double)
    case setTimeObserverInterval(Double)
    case setObservesEveryFrame(Bool)
    case subtitle(SubtitleCommand)
    case setNext(MediaSource?, audioStream: Int?)
}

/// Everything the control thread handles: commands and reports from the engine's threads.
/// `generation` tells reports of the current media from those of media already closed.
enum ControlMessage: Sendable {
    case command(PlayerCommand)
    case durationKnown(Double, generation: Int)
    case loaded(MediaLoader.Loaded, generation: Int)
    case loadFailed(PlayerError, generation: Int)
    case session(Session.Report, generation: Int)
    case subtitles(SubtitleReport, generation: Int)
    case cache(PlayerEvent, generation: Int)
    case shutdown
}

extension ControlMessage {
    /// The media generation a report belongs to (nil for commands).
    var generation: Int? {
        switch self {
        case .durationKnown(_, let g), .loaded(_, let g), .loadFailed(_, let g), .session(_, let g),
             .subtitles(_, let g), .cache(_, let g): return g
        case .command, .shutdown: return nil
        }
    }
}
