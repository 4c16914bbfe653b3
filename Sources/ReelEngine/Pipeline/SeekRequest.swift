/// How exactly a seek lands.
public enum SeekMode: String, Sendable, CaseIterable, Codable {
    /// The frame whose display interval contains the target (decodes from the previous key frame).
    case exact
    /// The key frame at or before the target: fast, approximate.
    case keyframe
}

/// One seek on its way through the pipeline; `serial` tells its packets and frames from
/// everything before it. Threading: a value type.
struct SeekRequest: Sendable {
    let serial: Int
    let target: Double
    let mode: SeekMode
    /// When false, the demuxer does not move (used for the first preroll after opening).
    let movesDemuxer: Bool
}
