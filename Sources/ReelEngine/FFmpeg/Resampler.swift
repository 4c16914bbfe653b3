import CFFmpeg

/// Converts decoded audio of any layout, rate and sample format to the device's float format,
/// downmixing surround to what the device has: libswresample's standard matrices where it
/// has them, `DownmixMatrix` for the layouts it cannot mix. When the source's format changes
/// mid-stream (a TV recording going from stereo to 5.1), the old conversion's last samples are
/// let out before the new one starts, so the change leaves no gap.
/// Threading: used only by the audio decoder thread.
final class Resampler {
    private var context: OpaquePointer?
    private var inputKey: InputKey?
    let output: AudioFormat
    private(set) var buffer: UnsafeMutablePointer<Float>
    private var bufferFrames: Int

    /// libswresample's limit (SWR_CH_MAX): beyond it the source is refused with a clear error.
    static let maximumChannels = 64
    /// Unspecified layouts of up to this many channels are taken for FFmpeg's standard layout
    /// of that count (six channels are 5.1), as players do; more channels than 7.1 has are
    /// rarely a speaker layout (microphone arrays, stems) and keep no positions.
    static let guessedLayoutLimit = 8

    private struct InputKey: Equatable {
        let format: Int32
        let rate: Int32
        let layout: String
    }

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
        guard let frame else {
            guard let context else { return 0 }
            return try drain(context, into: 0)
        }
        let held = try configure(for: frame)
        guard let context else { return held }
        let inputSamples = frame.sampleCount
        let needed = held + Int(swr_get_out_samples(context, Int32(inputSamples))) + 32
        reserve(needed)
        var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer + held * output.channels)
            .assumingMemoryBound(to: UInt8.self)
        // Planar audio has a plane per channel, and AVFrame.data holds only eight: the rest are
        // reachable through extended_data alone (which points at data for fewer channels).
        let planes = UnsafeMutableRawPointer(frame.pointer.pointee.extended_data)?
            .assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let converted = swr_convert(context, &out, Int32(bufferFrames - held), planes, Int32(inputSamples))
        if converted < 0 { throw .corruptData("audio conversion failed: \(FFmpegError.text(for: converted))") }
        return held + Int(converted)
    }

    private func reserve(_ frames: Int) {
        guard frames > bufferFrames else { return }
        let bigger = UnsafeMutablePointer<Float>.allocate(capacity: frames * output.channels)
        bigger.update(from: buffer, count: bufferFrames * output.channels)
        buffer.deallocate()
        buffer = bigger
        bufferFrames = frames
    }

    /// Lets out what `context` holds back into `buffer` from frame `offset`; returns the total.
    private func drain(_ context: OpaquePointer, into offset: Int) throws(PlayerError) -> Int {
        reserve(offset + Int(swr_get_out_samples(context, 0)) + 32)
        var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer + offset * output.channels)
            .assumingMemoryBound(to: UInt8.self)
        let converted = swr_convert(context, &out, Int32(bufferFrames - offset), nil, 0)
        if converted < 0 { throw .corruptData("audio conversion failed: \(FFmpegError.text(for: converted))") }
        return offset + Int(converted)
    }

    /// Makes the conversion match `frame`'s format; returns how many frames of the previous
    /// conversion's tail are now at the start of `buffer`.
    private func configure(for frame: Frame) throws(PlayerError) -> Int {
        let f = frame.pointer
        let channels = Int(f.pointee.ch_layout.nb_channels)
        guard channels <= Self.maximumChannels else {
            throw .unsupportedCodec("audio with \(channels) channels (at most \(Self.maximumChannels) can be played)")
        }
        guard f.pointee.sample_rate > 0 else { throw .corruptData("audio without a sample rate") }
        var inLayout = AVChannelLayout()
        if f.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || channels == 0 {
            if channels <= Self.guessedLayoutLimit {
                av_channel_layout_default(&inLayout, Int32(max(channels, 1)))
            } else {
                inLayout.order = AV_CHANNEL_ORDER_UNSPEC
                inLayout.nb_channels = Int32(channels)
            }
        } else if av_channel_layout_copy(&inLayout, &f.pointee.ch_layout) < 0 {
            throw .internalError("out of memory")
        }
        defer { av_channel_layout_uninit(&inLayout) }
        let key = InputKey(format: f.pointee.format, rate: f.pointee.sample_rate,
                           layout: ChannelLayoutName.describe(&inLayout))
        if key == inputKey, context != nil { return 0 }
        var held = 0
        if let old = context { held = try drain(old, into: 0) }
        swr_free(&context)
        inputKey = nil
        let ctx = try output.withChannelLayout { outLayout throws(PlayerError) in
            try Self.makeContext(from: &inLayout, format: AVSampleFormat(f.pointee.format), rate: f.pointee.sample_rate,
                                 to: outLayout, rate: Int32(output.sampleRate), name: key.layout)
        }
        context = ctx
        inputKey = key
        return held
    }

    private static func makeContext(from inLayout: UnsafePointer<AVChannelLayout>, format: AVSampleFormat, rate: Int32,
                                     to outLayout: UnsafePointer<AVChannelLayout>, rate outRate: Int32,
                                     name: String) throws(PlayerError) -> OpaquePointer {
        var ctx: OpaquePointer? = nil
        var result = swr_alloc_set_opts2(&ctx, UnsafeMutablePointer(mutating: outLayout), AV_SAMPLE_FMT_FLT, outRate,
                                         UnsafeMutablePointer(mutating: inLayout), format, rate, 0, nil)
        if result >= 0, !mixesItself(inLayout, to: outLayout) {
            let matrix = DownmixMatrix(input: DownmixMatrix.channels(of: inLayout),
                                       output: DownmixMatrix.channels(of: outLayout))
            let flat = matrix.gains.flatMap { $0 }
            result = swr_set_matrix(ctx, flat, Int32(inLayout.pointee.nb_channels))
        }
        if result >= 0 { result = swr_init(ctx) }
        guard result >= 0, let ctx else {
            swr_free(&ctx)
            throw .unsupportedCodec("audio layout \(name) at \(rate) Hz")
        }
        return ctx
    }

    /// Whether libswresample has a standard matrix for this pair that hears every channel. It
    /// knows native layouts of the eighteen classic speakers, and not all of those (unbalanced
    /// ones fail); past them it silently keeps only the first nine channels of 22.2.
    private static func mixesItself(_ inLayout: UnsafePointer<AVChannelLayout>,
                                    to outLayout: UnsafePointer<AVChannelLayout>) -> Bool {
        if av_channel_layout_compare(inLayout, outLayout) == 0 { return true }
        guard inLayout.pointee.order == AV_CHANNEL_ORDER_NATIVE, outLayout.pointee.order == AV_CHANNEL_ORDER_NATIVE,
              inLayout.pointee.u.mask & ~UInt64(0x3ffff) == 0 else { return false }
        // Whatever the stride, it scales all 64 columns of every row: the probe is 64 × 64.
        var probe = [Double](repeating: 0, count: maximumChannels * maximumChannels)
        guard swr_build_matrix2(inLayout, outLayout, 1 / 2.0.squareRoot(), 1 / 2.0.squareRoot(), 0, 1, 1,
                                &probe, maximumChannels, AV_MATRIX_ENCODING_NONE, nil) >= 0 else { return false }
        // Its matrix must let every channel but the LFE through: it leaves out the height
        // speakers (TFL, TFR, ...) of layouts it otherwise accepts.
        let inputs = DownmixMatrix.channels(of: inLayout)
        let outputs = Int(outLayout.pointee.nb_channels)
        return inputs.indices.allSatisfy { column in
            SpeakerSide(inputs[column]) == .lowFrequency
                || (0..<outputs).contains { probe[$0 * maximumChannels + column] != 0 }
        }
    }
}
