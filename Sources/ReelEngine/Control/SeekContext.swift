/// What the seek coordinator needs to know of the player when it decides.
/// Threading: a value made and used on the control thread.
struct SeekContext {
    var state: PlayerState
    /// Media is loaded (a session runs).
    var hasSession: Bool
    var hasVideo: Bool
    var hasAudio: Bool
    /// A landing (a seek's or the opening's preroll) is under way.
    var landing: Bool
    /// Targets are clamped to it.
    var duration: Double?
    /// Moves the player out of `.ended` for a seek; false when the host vetoes it.
    var leaveEnd: () -> Bool = { true }
}
