import CFFmpeg

extension MediaInput {
    /// Puts the demuxer on the key frame of `stream` at or before `timestamp` (in the stream's
    /// time base; with an index timestamp, exactly that key frame). Returns FFmpeg's code.
    package func seek(stream: Int, toKeyFrameAt timestamp: Int64) -> Int32 {
        av_seek_frame(formatContext, Int32(stream), timestamp, AVSEEK_FLAG_BACKWARD)
    }

    /// Seconds per unit of `stream`'s timestamps.
    package func timeBase(of stream: Int) -> Double { av_q2d(self.stream(stream).pointee.time_base) }
}
