import CFFmpeg
import Foundation

/// An opened FFmpeg decoder for one stream. EAGAIN and EOF come back as values, not throws,
/// because they are the normal rhythm of the send/receive loop.
/// Threading: used only by its decoder thread after creation.
package final class Decoder: @unchecked Sendable {
    // Safe: confined to one decoder thread after init.
    package let context: UnsafeMutablePointer<AVCodecContext>
    package let codecName: String

    package enum Receive { case frame, needsInput, endOfStream, error(Int32) }
    package enum Send { case accepted, full, error(Int32) }

    /// Opens a decoder for `stream`. `threads` 0 lets FFmpeg pick one per core (plus one).
    package init(stream: UnsafeMutablePointer<AVStream>, threads: Int = 0) throws(PlayerError) {
        let parameters = stream.pointee.codecpar!
        let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .unsupportedCodec(name)
        }
        guard let ctx = avcodec_alloc_context3(codec) else { throw .internalError("out of memory") }
        var owned: UnsafeMutablePointer<AVCodecContext>? = ctx
        if avcodec_parameters_to_context(ctx, parameters) < 0 {
            avcodec_free_context(&owned)
            throw .unsupportedCodec(name)
        }
        ctx.pointee.pkt_timebase = stream.pointee.time_base
        ctx.pointee.thread_count = Int32(threads)
        ctx.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        let options = AVOptions()
        let result = avcodec_open2(ctx, codec, &options.pointer)
        if result < 0 {
            avcodec_free_context(&owned)
            throw .unsupportedCodec("\(name) (\(FFmpegError.text(for: result)))")
        }
        context = ctx
        codecName = name
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&ctx)
    }

    /// Sends a packet, or nil to enter draining mode at end of stream.
    package func send(_ packet: Packet?) -> Send {
        let result = avcodec_send_packet(context, packet?.pointer)
        if result >= 0 { return .accepted }
        if result == FFmpegError.again { return .full }
        if result == FFmpegError.eof { return .accepted }
        return .error(result)
    }

    package func receive(into frame: Frame) -> Receive {
        let result = avcodec_receive_frame(context, frame.pointer)
        if result >= 0 { return .frame }
        if result == FFmpegError.again { return .needsInput }
        if result == FFmpegError.eof { return .endOfStream }
        return .error(result)
    }

    /// Forgets all buffered state (after a seek).
    package func flush() { avcodec_flush_buffers(context) }

    /// While set, frames that no other frame references are not decoded at all.
    /// Used to get to an exact seek target faster; it never hides the target frame itself,
    /// because the decoder thread only sets it for packets followed, at or before the target,
    /// by a packet it has already sent.
    package var skipsNonReferenceFrames: Bool {
        get { context.pointee.skip_frame == AVDISCARD_NONREF }
        set { context.pointee.skip_frame = newValue ? AVDISCARD_NONREF : AVDISCARD_DEFAULT }
    }
}
