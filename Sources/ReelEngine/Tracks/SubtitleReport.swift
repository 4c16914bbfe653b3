/// What the subtitle loading threads report to the control thread. Threading: value types.
enum SubtitleReport: Sendable {
    /// Tracks decoded; `finished` when the media's own streams are all read.
    case loaded([DecodedSubtitles], finished: Bool, chosenByPerson: Bool)
    case fileFailed(path: String, error: PlayerError)
}
