/// What opening media with a remembered position does (the `resume-playback` preference; the
/// raw values are the schema's choices).
/// Threading: a value type.
public enum ResumeMode: String, Sendable, CaseIterable {
    /// Plays on from where it was left, with a way back to the start.
    case resume
    /// Asks first, paused.
    case ask
    /// Always from the beginning.
    case never
}
