import CFFmpeg

/// One libswscale conversion kept for reuse: a context for one input and output, and (for
/// `run(_:)`) a frame it writes into, allocated once.
/// Threading: one thread at a time (owned by a `FrameScaler`).
package final class SwsStage {
    /// What the stage converts. Threading: a value type.
    package struct Key: Equatable {
        package var from: AVPixelFormat, width: Int, height: Int
        package var to: AVPixelFormat, outWidth: Int, outHeight: Int
        /// For YUV input: how to read it (nil: libswscale's defaults, for a copy that keeps YUV).
        package var matrix: ColorMatrix? = nil, range: ColorRange? = nil, chroma: ChromaLocation? = nil
    }

    package let key: Key
    private let context: OpaquePointer
    private var output: Frame?

    package init(_ key: Key, flags: Int32) throws(PlayerError) {
        guard let sws = sws_alloc_context() else { throw .internalError("out of memory") }
        var options: [(String, Int64)] = [
            ("srcw", Int64(key.width)), ("srch", Int64(key.height)), ("src_format", Int64(key.from.rawValue)),
            ("dstw", Int64(key.outWidth)), ("dsth", Int64(key.outHeight)), ("dst_format", Int64(key.to.rawValue)),
            ("sws_flags", Int64(flags)),
        ]
        if let chroma = key.chroma, let range = key.range {
            // Only options tell libswscale where the chroma samples sit (it assumes centred;
            // H.264 is left-sited).
            let descriptor = av_pix_fmt_desc_get(key.from)
            let siting = chroma.resolved(for: range)
                .swscalePosition(log2Horizontal: Int(descriptor?.pointee.log2_chroma_w ?? 0),
                                 log2Vertical: Int(descriptor?.pointee.log2_chroma_h ?? 0))
            options += [("src_h_chr_pos", Int64(siting.horizontal)), ("src_v_chr_pos", Int64(siting.vertical))]
        }
        for (name, value) in options { av_opt_set_int(UnsafeMutableRawPointer(sws), name, value, 0) }
        guard sws_init_context(sws, nil, nil) >= 0 else {
            sws_freeContext(sws)
            throw .internalError("cannot convert \(PixelFormat(key.from)) pictures for drawing")
        }
        if let matrix = key.matrix, let range = key.range {
            let coefficients = sws_getCoefficients(matrix.swsColorspace)
            _ = sws_setColorspaceDetails(sws, coefficients, range == .full ? 1 : 0, coefficients, 1, 0, 1 << 16, 1 << 16)
        }
        self.key = key
        context = sws
    }

    deinit { sws_freeContext(context) }

    /// Converts `frame` into this stage's own frame (reused from call to call), which keeps the
    /// source's colour description.
    package func run(_ frame: Frame) throws(PlayerError) -> Frame {
        let out: Frame
        if let output { out = output } else {
            out = Frame()
            out.pointer.pointee.format = key.to.rawValue
            out.pointer.pointee.width = Int32(key.outWidth)
            out.pointer.pointee.height = Int32(key.outHeight)
            // 64-byte rows and planes: what zimg's vector code reads.
            guard av_frame_get_buffer(out.pointer, 64) >= 0 else { throw .internalError("out of memory") }
            output = out
        }
        let src = frame.pointer
        let o = out.pointer
        o.pointee.colorspace = src.pointee.colorspace
        o.pointee.color_range = src.pointee.color_range
        o.pointee.chroma_location = src.pointee.chroma_location
        let source = withUnsafeBytes(of: src.pointee.data) { Array($0.bindMemory(to: UnsafePointer<UInt8>?.self).prefix(4)) }
        let strides = withUnsafeBytes(of: src.pointee.linesize) { Array($0.bindMemory(to: Int32.self).prefix(4)) }
        let target = withUnsafeBytes(of: o.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self).prefix(4)) }
        let targetStrides = withUnsafeBytes(of: o.pointee.linesize) { Array($0.bindMemory(to: Int32.self).prefix(4)) }
        try run(source, strides, height: Int(src.pointee.height), into: target, targetStrides)
        return out
    }

    /// Converts rows given by their planes into planes given by the caller.
    package func run(_ source: [UnsafePointer<UInt8>?], _ strides: [Int32], height: Int,
             into target: [UnsafeMutablePointer<UInt8>?], _ targetStrides: [Int32]) throws(PlayerError) {
        guard sws_scale(context, source, strides, 0, Int32(height), target, targetStrides) > 0 else {
            throw .internalError("cannot convert the picture for drawing")
        }
    }
}
