import CFFmpeg

/// Joins the clocks of media whose timestamps jump: MPEG-TS files cut and joined end to end
/// (each piece starts its clock again), a recording across a broadcaster's clock reset. FFmpeg
/// hands such timestamps on as they are; played by them, the picture would wait for seconds or
/// rush through a whole piece. As FFmpeg's own command line does, a packet whose decode time
/// goes back by more than a tenth of a second, or on by more than ten seconds, from where its
/// stream was heading moves the clock of that stream from there on, so that it continues where
/// it left off. Each stream is judged by itself: a piece's last packets of one stream may be
/// read after the next piece's first packets of another. The other streams, when they reach
/// the same jump, take the same move if it fits them (within a second), so the new piece keeps
/// its own sound and picture in step. Only sound and picture are judged (subtitles are sparse:
/// a minute without one is no jump); other streams move as the latest jump did. Only
/// containers whose timestamps may jump are watched (MPEG-TS and -PS, HLS: FFmpeg marks them
/// AVFMT_TS_DISCONT); a seek starts afresh.
/// Threading: a value owned by the demux thread.
struct TimestampContinuity {
    static let demuxers: Set<String> = ["mpegts", "mpegtsraw", "mpeg", "hls"]
    static let backwardLimit = Int64(AV_TIME_BASE) / 10
    static let forwardLimit = 10 * Int64(AV_TIME_BASE)
    static let sameJump = Int64(AV_TIME_BASE)

    /// One stream's clock: its move, in microseconds, the jump it was taken at, and the decode
    /// time its next packet should have and the latest it had (both moved). Threading: a value type.
    private struct Clock {
        var offset: Int64 = 0
        var jump = 0
        var next: Int64
        var latest: Int64
    }

    let isWatching: Bool
    private var clocks: [Int: Clock] = [:]
    /// The latest jump any stream met, and the move it took (for the other streams to take).
    private var jumps = 0
    private var jumpOffset: Int64 = 0

    init(formatName: String) {
        isWatching = Self.demuxers.contains(formatName)
    }

    /// After a seek the timestamps are the file's own again.
    mutating func reset() {
        clocks.removeAll()
        jumps = 0
        jumpOffset = 0
    }

    /// Moves `packet`'s timestamps by its stream's offset, first changing the offset when this
    /// packet of sound or picture (`judged`) jumps away from where its stream was heading.
    mutating func adjust(_ packet: Packet, timeBase: AVRational, judged: Bool) {
        guard isWatching else { return }
        let p = packet.pointer
        let nopts = reel_nopts_value()
        guard judged else {
            if jumpOffset != 0 {
                let shift = av_rescale_q(jumpOffset, AVRational(num: 1, den: Int32(AV_TIME_BASE)), timeBase)
                if p.pointee.pts != nopts { p.pointee.pts += shift }
                if p.pointee.dts != nopts { p.pointee.dts += shift }
            }
            return
        }
        let stamp = p.pointee.dts != nopts ? p.pointee.dts : p.pointee.pts
        guard stamp != nopts, timeBase.num > 0, timeBase.den > 0 else { return }
        let microseconds = AVRational(num: 1, den: Int32(AV_TIME_BASE))
        let raw = av_rescale_q(stamp, timeBase, microseconds)
        let stream = Int(p.pointee.stream_index)
        var clock = clocks[stream] ?? Clock(offset: jumpOffset, jump: jumps, next: raw + jumpOffset, latest: raw + jumpOffset)
        var time = raw + clock.offset
        let delta = time - clock.next
        if delta > Self.forwardLimit || delta < -Self.forwardLimit || time + Self.backwardLimit < clock.latest {
            if clock.jump < jumps, abs(raw + jumpOffset - clock.next) < Self.sameJump {
                clock.offset = jumpOffset        // the jump another stream met: move as it did
            } else {
                clock.offset -= delta            // a jump of its own: continue where it was heading
                jumps += 1
                jumpOffset = clock.offset
            }
            clock.jump = jumps
            clock.latest = raw + clock.offset
            time = raw + clock.offset
        }
        if clock.offset != 0 {
            let shift = av_rescale_q(clock.offset, microseconds, timeBase)
            if p.pointee.pts != nopts { p.pointee.pts += shift }
            if p.pointee.dts != nopts { p.pointee.dts += shift }
        }
        let duration = p.pointee.duration > 0 ? av_rescale_q(p.pointee.duration, timeBase, microseconds) : 0
        clock.next = time + duration
        clock.latest = max(clock.latest, time)
        clocks[stream] = clock
    }
}
