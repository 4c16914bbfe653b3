import CFFmpeg

/// Evens out loudness in device-format PCM: libavfilter's `dynaudnorm` (the Dynamic Audio
/// Normalizer). Its gain for each 75 ms frame is the smallest any frame within 25 frames
/// (1.9 s) needs, smoothed over the same window, so it moves too slowly to pump on syllables or
/// breathe in short pauses; it waits for the whole window, so the output trails the input by
/// `latencySeconds`. The alternative boundary mode gives the first frames after a seek their
/// own gain rather than a swell from none. The peak target of 0.5 (−6 dBFS) leaves room for
/// inter-sample peaks, so no limiter is needed to stay under −1 dBTP. `loudnorm`'s one-pass
/// mode was measured and not taken: it works at 192 kHz (50× the processor time), holds 3 s
/// back, came within 0.1 dB of −1 dBTP and moved the gain on speech by 3 dB around the bangs,
/// where dynaudnorm moved it by 0.3 dB (BENCHMARKS.md). The output has exactly as many samples
/// as the input (the drain may add padding, which the caller cuts).
/// Threading: used only by the audio decoder thread.
final class LevellingFilter {
    /// Frame length (ms), window (frames), peak, maximum gain (+20 dB), alternative boundary.
    static let settings = "f=75:g=25:p=0.5:m=10:b=1"
    /// How far the output trails the input: libavfilter's dynaudnorm lets a frame out once the
    /// whole window is queued behind it (measured: LevellingCrossFadeTests).
    static let latencySeconds = 0.075 * 25

    private let format: AudioFormat
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private let input = Frame()
    private let output = Frame()
    private var inputSamples: Int64 = 0
    /// Output of the last `process`/`drain`, interleaved float.
    private(set) var buffer: [Float] = []

    init(format: AudioFormat) throws(PlayerError) {
        self.format = format
        graph = avfilter_graph_alloc()
        guard let graph else { throw .internalError("out of memory") }
        let sourceArgs = "sample_rate=\(format.sampleRate):sample_fmt=flt:channel_layout=\(format.channelLayoutName):time_base=1/\(format.sampleRate)"
        var level: UnsafeMutablePointer<AVFilterContext>?
        var packing: UnsafeMutablePointer<AVFilterContext>?
        // dynaudnorm works on planar doubles: the graph converts in, and `aformat` back out.
        guard avfilter_graph_create_filter(&source, avfilter_get_by_name("abuffer"), "in", sourceArgs, nil, graph) >= 0,
              avfilter_graph_create_filter(&level, avfilter_get_by_name("dynaudnorm"), "level", Self.settings, nil, graph) >= 0,
              avfilter_graph_create_filter(&packing, avfilter_get_by_name("aformat"), "pack",
                                           "sample_fmts=flt", nil, graph) >= 0,
              avfilter_graph_create_filter(&sink, avfilter_get_by_name("abuffersink"), "out", nil, nil, graph) >= 0,
              avfilter_link(source, 0, level, 0) >= 0, avfilter_link(level, 0, packing, 0) >= 0,
              avfilter_link(packing, 0, sink, 0) >= 0, avfilter_graph_config(graph, nil) >= 0
        else { throw .internalError("cannot set up the loudness levelling filter") }
    }

    deinit { avfilter_graph_free(&graph) }

    /// Feeds `frames` frames; `buffer` then holds whatever the filter let out (maybe nothing).
    func process(_ samples: UnsafePointer<Float>, frames: Int) throws(PlayerError) {
        buffer.removeAll(keepingCapacity: true)
        guard frames > 0, let source else { return }
        let f = input.pointer
        f.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        f.pointee.sample_rate = Int32(format.sampleRate)
        av_channel_layout_default(&f.pointee.ch_layout, Int32(format.channels))
        f.pointee.nb_samples = Int32(frames)
        f.pointee.pts = inputSamples
        guard av_frame_get_buffer(f, 0) >= 0, let data = f.pointee.data.0 else {
            input.unref()
            throw .internalError("out of memory")
        }
        UnsafeMutableRawPointer(data).assumingMemoryBound(to: Float.self)
            .update(from: samples, count: frames * format.channels)
        inputSamples += Int64(frames)
        let result = av_buffersrc_add_frame(source, f)   // takes the reference
        input.unref()
        guard result >= 0 else { throw .internalError("levelling filter: \(FFmpegError.text(for: result))") }
        collect()
    }

    /// Ends the input: `buffer` holds the filter's last samples.
    func drain() {
        buffer.removeAll(keepingCapacity: true)
        guard let source else { return }
        _ = av_buffersrc_add_frame(source, nil)
        collect()
    }

    private func collect() {
        guard let sink else { return }
        while av_buffersink_get_frame(sink, output.pointer) >= 0 {
            let count = Int(output.pointer.pointee.nb_samples) * format.channels
            if let data = output.pointer.pointee.data.0, count > 0 {
                let floats = UnsafeRawPointer(data).assumingMemoryBound(to: Float.self)
                buffer.append(contentsOf: UnsafeBufferPointer(start: floats, count: count))
            }
            output.unref()
        }
    }
}
