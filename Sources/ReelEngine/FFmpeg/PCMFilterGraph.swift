import CFFmpeg

/// A libavfilter chain over device-format PCM (interleaved float at the output's rate and
/// layout): `abuffer` → the stages in order → `abuffersink`. What the tempo and levelling
/// filters share: the graph, feeding it, and reading back what it lets out.
/// Threading: used only by the audio decoder thread.
final class PCMFilterGraph {
    private let format: AudioFormat
    private let name: String
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private let input = Frame()
    private let output = Frame()
    private var inputSamples: Int64 = 0
    /// Output of the last `process`/`drain`, interleaved float.
    private(set) var buffer: [Float] = []

    /// `stages`: libavfilter filter names and their arguments; `name` names the chain in errors.
    init(format: AudioFormat, stages: [(filter: String, arguments: String)], name: String) throws(PlayerError) {
        self.format = format
        self.name = name
        graph = avfilter_graph_alloc()
        guard let graph else { throw .internalError("out of memory") }
        let sourceArgs = "sample_rate=\(format.sampleRate):sample_fmt=flt:channel_layout=\(format.channelLayoutName):time_base=1/\(format.sampleRate)"
        guard avfilter_graph_create_filter(&source, avfilter_get_by_name("abuffer"), "in", sourceArgs, nil, graph) >= 0,
              avfilter_graph_create_filter(&sink, avfilter_get_by_name("abuffersink"), "out", nil, nil, graph) >= 0,
              var previous = source
        else { throw .internalError("cannot set up the \(name)") }
        for (index, stage) in stages.enumerated() {
            var made: UnsafeMutablePointer<AVFilterContext>?
            guard avfilter_graph_create_filter(&made, avfilter_get_by_name(stage.filter), "stage\(index)",
                                               stage.arguments, nil, graph) >= 0, let made,
                  avfilter_link(previous, 0, made, 0) >= 0
            else { throw .internalError("cannot set up the \(name) (\(stage.filter)=\(stage.arguments))") }
            previous = made
        }
        guard avfilter_link(previous, 0, sink, 0) >= 0, avfilter_graph_config(graph, nil) >= 0 else {
            throw .internalError("cannot configure the \(name)")
        }
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
        guard result >= 0 else { throw .internalError("\(name): \(FFmpegError.text(for: result))") }
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
