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
    /// Where the demuxer goes: the target, or earlier when a first try landed after the target
    /// (key frames indexed by decode time, open GOPs whose leading frames cannot be decoded).
    var demuxTarget: Double
    /// How many times this seek already went further back.
    var attempt = 0
    /// A back step's seek: every picture decoded before the landing is kept as the past, so
    /// the next back steps need no decoding (see `FrameTape`).
    var fillsPast = false

    init(serial: Int, target: Double, mode: SeekMode, movesDemuxer: Bool) {
        self.serial = serial
        self.target = target
        self.mode = mode
        self.movesDemuxer = movesDemuxer
        demuxTarget = target
    }

    /// The same seek again from further back, under a new serial.
    func retried(serial: Int, landedAt pts: Double) -> SeekRequest {
        var again = SeekRequest(serial: serial, target: target, mode: mode, movesDemuxer: true)
        again.attempt = attempt + 1
        again.fillsPast = fillsPast
        let backoff = (pts - target) + 0.5 * Double(1 << attempt)
        again.demuxTarget = max(0, demuxTarget - backoff)
        return again
    }
}
