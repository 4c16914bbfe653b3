import CFFmpeg

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
    /// Another audio stream from this seek on: the demuxer routes it to the audio decoder,
    /// which takes up its new codec at the flush.
    var audioSwitch: AudioSwitch?

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

/// The audio stream a seek switches to, with its decoder opened on the control thread.
/// Threading: handed over whole: the demux thread reads the stream fields, the audio decoder
/// thread alone uses the decoder once it meets the flush.
final class AudioSwitch: @unchecked Sendable {
    // Safe: immutable; `decoder` is used by one thread (the audio decoder's) after the hand-over.
    let streamIndex: Int
    let decoder: Decoder
    let timeBase: AVRational

    init(streamIndex: Int, decoder: Decoder, timeBase: AVRational) {
        self.streamIndex = streamIndex
        self.decoder = decoder
        self.timeBase = timeBase
    }
}
