/// How exactly a seek lands. Threading: a value type.
public enum SeekMode: String, Sendable, CaseIterable, Codable {
    /// The frame whose display interval contains the target (decodes from the previous key frame).
    case exact
    /// The key frame at or before the target: fast, approximate.
    case keyframe
}
