import CFFmpeg

/// Converts decoded audio of any layout, rate and sample format to the device's float format,
/// downmixing surround to what the device has (libswresample's standard matrices).
/// Threading: used only by the audio decoder thread.
final class Resampler {
    private var context: OpaquePointer?
    private var inputKey: (format: Int32, rate: Int32, layout: String)?
    let output: AudioFormat
    private(set) var buffer: UnsafeMutablePointer<Float>
    private var bufferFrames: Int

    init(output: AudioFormat) {
        self.output = output
        bufferFrames = 4096
        buffer = .allocate(capacity: bufferFrames * output.channels)
    }

    deinit {
        swr_free(&context)
        buffer.deallocate()
    }

    /// The resampler's own delay in output seconds (its filter holds a few samples back).
    var delaySeconds: Double {
        guard let context else { return 0 }
        return Double(swr_get_delay(context, Int64(output.sampleRate))) / Double(output.sampleRate)
    }

    /// Converts `frame` (or flushes with nil); returns the number of frames now in `buffer`.
    func convert(_ frame: Frame?) throws(PlayerError) -> Int {
        if let frame { try configure(for: frame) }
        guard let context else { return 0 }
        let inputSamples = frame?.sampleCount ?? 0
        let needed = Int(swr_get_out_samples(context, Int32(inputSamples))) + 32
        if needed > bufferFrames {
            buffer.deallocate()
            bufferFrames = needed
            buffer = .allocate(capacity: bufferFrames * output.channels)
        }
        var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
        let converted: Int32
        if let frame {
            converted = withUnsafeMutablePointer(to: &frame.pointer.pointee.data) { tuple in
                tuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { input in
                    swr_convert(context, &out, Int32(bufferFrames), input, Int32(inputSamples))
                }
            }
        } else {
            converted = swr_convert(context, &out, Int32(bufferFrames), nil, 0)
        }
        if converted < 0 { throw .corruptData("audio conversion failed: \(FFmpegError.text(for: converted))") }
        return Int(converted)
    }

    private func configure(for frame: Frame) throws(PlayerError) {
        let f = frame.pointer
        var inLayout = AVChannelLayout()
        if f.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || f.pointee.ch_layout.nb_channels == 0 {
            av_channel_layout_default(&inLayout, max(f.pointee.ch_layout.nb_channels, 1))
        } else {
            av_channel_layout_copy(&inLayout, &f.pointee.ch_layout)
        }
        defer { av_channel_layout_uninit(&inLayout) }
        let layoutName = Self.describe(&inLayout)
        let key = (f.pointee.format, f.pointee.sample_rate, layoutName)
        if let current = inputKey, current == key, context != nil { return }
        swr_free(&context)
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(output.channels))
        defer { av_channel_layout_uninit(&outLayout) }
        var ctx: OpaquePointer? = nil
        var result = swr_alloc_set_opts2(&ctx, &outLayout, AV_SAMPLE_FMT_FLT, Int32(output.sampleRate),
                                         &inLayout, AVSampleFormat(f.pointee.format), f.pointee.sample_rate,
                                         0, nil)
        if result >= 0 { result = swr_init(ctx) }
        guard result >= 0, ctx != nil else {
            swr_free(&ctx)
            throw .unsupportedCodec("audio layout \(layoutName) at \(f.pointee.sample_rate) Hz")
        }
        context = ctx
        inputKey = key
    }

    static func describe(_ layout: UnsafePointer<AVChannelLayout>) -> String {
        var text = [CChar](repeating: 0, count: 128)
        _ = av_channel_layout_describe(layout, &text, text.count)
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
