import CFFmpeg

/// What the session reads of its video stream before any frame: how many pictures to queue,
/// how frames are timed, whether the stream says it is interlaced.
/// Threading: pure functions of the stream, called while the session is made.
extension Session {
    /// How many decoded pictures fit the configured budget (at least 3: one on screen, one due,
    /// one being decoded).
    static func queueCapacity(_ stream: UnsafeMutablePointer<AVStream>,
                              _ configuration: PlayerConfiguration) -> Int {
        let par = stream.pointee.codecpar.pointee
        let bytes = Int(av_image_get_buffer_size(AVPixelFormat(par.format), par.width, par.height, 1))
        guard bytes > 0 else { return configuration.videoQueueCapacity }
        return max(3, min(configuration.videoQueueCapacity, configuration.videoQueueBytes / bytes))
    }

    /// The stream's own word that its frames are interlaced (its field order), before any
    /// frame says so.
    static func fieldsOrdered(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        switch stream.pointee.codecpar.pointee.field_order {
        case AV_FIELD_TT, AV_FIELD_BB, AV_FIELD_TB, AV_FIELD_BT: true
        default: false
        }
    }

    static func videoTiming(_ stream: UnsafeMutablePointer<AVStream>, origin: Double) -> VideoDecodeWorker.Timing {
        let s = stream.pointee
        let tb = s.time_base
        let avg = s.avg_frame_rate, base = s.r_frame_rate
        var frameDuration: Int64 = 0
        let rate = avg.num > 0 && avg.den > 0 ? avg : base
        if rate.num > 0 && rate.den > 0 {
            frameDuration = av_rescale_q(1, av_inv_q(rate), tb)
        }
        // Constant rate when the average and base rates agree (within rounding).
        let constant = avg.num > 0 && base.num > 0 && abs(av_q2d(avg) - av_q2d(base)) < 0.01
        let start = s.start_time != reel_nopts_value() ? s.start_time : 0
        return .init(timeBase: tb, startPts: start, frameDuration: max(frameDuration, 0), constantRate: constant,
                     origin: origin)
    }
}
