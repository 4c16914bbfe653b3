/// Everything the control thread handles: commands and reports from the engine's threads.
/// `generation` tells reports of the current media from those of media already closed.
/// Threading: value types, posted from any thread.
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
