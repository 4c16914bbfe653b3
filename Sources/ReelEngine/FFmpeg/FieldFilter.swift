import CFFmpeg

/// libavfilter's `bwdif` at field rate (`mode=send_field`): each interlaced frame in, its two
/// fields out as whole pictures, in a time base of half the stream's (the first field at twice
/// the frame's pts, the second halfway to the next frame). bwdif works on a frame with the one
/// before and the one after it, so a frame's pictures come out once the next frame is in (or
/// at `drain`), and only a frame that had its true predecessor pushed before it comes out as in
/// a run from the start.
/// Threading: used only by the video decoder thread.
final class FieldFilter {
    /// The size and layout of the frames the graph was made for; another needs a new graph.
    struct Shape: Equatable {
        let width: Int32
        let height: Int32
        let format: Int32
        let aspect: AVRational

        init(_ frame: UnsafePointer<AVFrame>) {
            width = frame.pointee.width
            height = frame.pointee.height
            format = frame.pointee.format
            aspect = frame.pointee.sample_aspect_ratio
        }

        static func == (a: Shape, b: Shape) -> Bool {
            a.width == b.width && a.height == b.height && a.format == b.format
                && av_cmp_q(a.aspect, b.aspect) == 0
        }
    }

    let shape: Shape
    /// The pictures' time base (half the stream's).
    let outputTimeBase: AVRational
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?

    /// `everyFrame`: bwdif's `deint=all`; otherwise only frames flagged interlaced are
    /// deinterlaced and the others pass once, at their own rate.
    init(shape: Shape, timeBase: AVRational, everyFrame: Bool) throws(PlayerError) {
        self.shape = shape
        graph = avfilter_graph_alloc()
        guard let graph else { throw .internalError("out of memory") }
        let aspect = shape.aspect.num > 0 && shape.aspect.den > 0 ? shape.aspect : AVRational(num: 1, den: 1)
        let format = av_get_pix_fmt_name(AVPixelFormat(shape.format)).map { String(cString: $0) } ?? "\(shape.format)"
        let sourceArgs = "video_size=\(shape.width)x\(shape.height):pix_fmt=\(format)"
            + ":time_base=\(timeBase.num)/\(timeBase.den):pixel_aspect=\(aspect.num)/\(aspect.den)"
        let bwdifArgs = "mode=send_field:parity=auto:deint=" + (everyFrame ? "all" : "interlaced")
        var bwdif: UnsafeMutablePointer<AVFilterContext>?
        guard avfilter_graph_create_filter(&source, avfilter_get_by_name("buffer"), "in", sourceArgs, nil, graph) >= 0,
              avfilter_graph_create_filter(&bwdif, avfilter_get_by_name("bwdif"), "bwdif", bwdifArgs, nil, graph) >= 0,
              avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out", nil, nil, graph) >= 0,
              avfilter_link(source, 0, bwdif, 0) >= 0, avfilter_link(bwdif, 0, sink, 0) >= 0,
              avfilter_graph_config(graph, nil) >= 0, let sink
        else { throw .internalError("cannot set up the deinterlacer (bwdif) for \(shape.width)x\(shape.height)") }
        outputTimeBase = av_buffersink_get_time_base(sink)
    }

    deinit { avfilter_graph_free(&graph) }

    /// Feeds a frame (a new reference to its buffers; `frame` stays the caller's) and returns
    /// the pictures that came out.
    func push(_ frame: Frame) throws(PlayerError) -> [Frame] {
        guard let source else { return [] }
        let result = av_buffersrc_add_frame_flags(source, frame.pointer, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        guard result >= 0 else { throw .internalError("deinterlacer: \(FFmpegError.text(for: result))") }
        return collect()
    }

    /// Ends the input: bwdif makes up a frame after the last, so its fields come out too.
    func drain() -> [Frame] {
        guard let source else { return [] }
        _ = av_buffersrc_add_frame_flags(source, nil, 0)
        return collect()
    }

    private func collect() -> [Frame] {
        guard let sink else { return [] }
        var pictures: [Frame] = []
        while true {
            let picture = Frame()
            guard av_buffersink_get_frame(sink, picture.pointer) >= 0 else { break }
            pictures.append(picture)
        }
        return pictures
    }
}
