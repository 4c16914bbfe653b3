import CFFmpeg

/// Changes the tempo of device-format PCM without changing its pitch: libavfilter's `atempo`
/// (WSOLA), chained when the factor is outside one instance's comfortable range, so 0.25× is
/// two 0.5× stages rather than one stage stretching each window fourfold.
/// Threading: used only by the audio decoder thread.
final class TempoFilter {
    let speed: Double
    private let format: AudioFormat
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private let input = Frame()
    private let output = Frame()
    private var inputSamples: Int64 = 0
    /// Output of the last `process`/`drain`, interleaved float.
    private(set) var buffer: [Float] = []

    init(format: AudioFormat, speed: Double) throws(PlayerError) {
        self.format = format
        self.speed = speed
        graph = avfilter_graph_alloc()
        guard let graph else { throw .internalError("out of memory") }
        let layout = format.channelLayoutName
        let sourceArgs = "sample_rate=\(format.sampleRate):sample_fmt=flt:channel_layout=\(layout):time_base=1/\(format.sampleRate)"
        guard avfilter_graph_create_filter(&source, avfilter_get_by_name("abuffer"), "in", sourceArgs, nil, graph) >= 0,
              avfilter_graph_create_filter(&sink, avfilter_get_by_name("abuffersink"), "out", nil, nil, graph) >= 0,
              var previous = source
        else { throw .internalError("cannot set up the tempo filter") }
        for (index, factor) in Self.stages(for: speed).enumerated() {
            var stage: UnsafeMutablePointer<AVFilterContext>?
            guard avfilter_graph_create_filter(&stage, avfilter_get_by_name("atempo"), "tempo\(index)",
                                               "tempo=\(factor)", nil, graph) >= 0, let stage,
                  avfilter_link(previous, 0, stage, 0) >= 0
            else { throw .internalError("cannot set up the tempo filter for \(speed)×") }
            previous = stage
        }
        guard avfilter_link(previous, 0, sink, 0) >= 0, avfilter_graph_config(graph, nil) >= 0 else {
            throw .internalError("cannot configure the tempo filter for \(speed)×")
        }
    }

    deinit { avfilter_graph_free(&graph) }

    /// Factors of at most 2 and at least 0.5 whose product is `speed`: each atempo stage
    /// then overlaps windows the way it was tuned for.
    static func stages(for speed: Double) -> [Double] {
        var left = speed
        var factors: [Double] = []
        while left > 2.0001 { factors.append(2); left /= 2 }
        while left < 0.4999 { factors.append(0.5); left /= 0.5 }
        factors.append(left)
        return factors
    }

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
        guard result >= 0 else { throw .internalError("tempo filter: \(FFmpegError.text(for: result))") }
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
