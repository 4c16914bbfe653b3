/// What happens at the end of an item: go on to the next (stopping after the last), play the
/// same item again, or start the queue over after the last.
/// Threading: a value type.
enum LoopMode: String, CaseIterable, Codable, Sendable {
    case none
    case track
    case playlist

    /// MPRIS's LoopStatus names.
    var mprisName: String {
        switch self {
        case .none: "None"
        case .track: "Track"
        case .playlist: "Playlist"
        }
    }

    init?(mprisName: String) {
        guard let mode = Self.allCases.first(where: { $0.mprisName == mprisName }) else { return nil }
        self = mode
    }
}
