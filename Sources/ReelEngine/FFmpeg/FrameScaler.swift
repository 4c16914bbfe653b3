import CFFmpeg

/// Converts pictures to 32-bit BGRA rows at the size they are shown, for drawing without a GPU:
/// one libswscale pass does the colour conversion (the frame's own matrix, range and chroma
/// siting) and the scaling together, so nothing is converted at video size and then scaled
/// again. The scaler is kept while the input and output stay the same (every picture of a
/// stream at one window size) and rebuilt when either changes.
/// Threading: one thread at a time (the window's main thread); the frames may come from any.
public final class FrameScaler {
    private var context: OpaquePointer?
    private var key: Key?

    /// What a scaler is built for. Threading: a value type.
    private struct Key: Equatable {
        let format: Int32, width: Int32, height: Int32
        let outWidth: Int, outHeight: Int
        let matrix: ColorMatrix, range: ColorRange, chroma: ChromaLocation
    }

    /// The layout `scale` writes: cairo's ARGB32, which is native-endian 32-bit words with
    /// alpha high (opaque pictures need no premultiplying).
    public static let bytesPerPixel = 4

    public init() {}

    deinit { sws_freeContext(context) }

    /// Converts `frame` to `width`×`height` pixels into `destination`, rows `bytesPerRow` apart
    /// (at least `width * 4`), as opaque native-endian ARGB (B, G, R, A in memory here).
    public func scale(_ frame: VideoFrame, width: Int, height: Int,
                      into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(PlayerError) {
        guard width > 0, height > 0, bytesPerRow >= width * Self.bytesPerPixel else { return }
        let src = frame.frame.pointer
        let wanted = Key(format: src.pointee.format, width: src.pointee.width, height: src.pointee.height,
                         outWidth: width, outHeight: height,
                         matrix: frame.colorMatrix, range: frame.colorRange, chroma: frame.chromaLocation)
        if wanted != key {
            sws_freeContext(context)
            context = nil
            key = nil
            context = try Self.makeContext(for: wanted)
            key = wanted
        }
        var planes: [UnsafeMutablePointer<UInt8>?] = [destination.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
        var strides: [Int32] = [Int32(bytesPerRow), 0, 0, 0]
        let lines = withUnsafePointer(to: &src.pointee.data) { sData in
            sData.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sd in
                withUnsafePointer(to: &src.pointee.linesize) { sLines in
                    sLines.withMemoryRebound(to: Int32.self, capacity: 8) { sl in
                        sws_scale(context, sd, sl, 0, src.pointee.height, &planes, &strides)
                    }
                }
            }
        }
        guard lines > 0 else { throw .internalError("cannot convert the picture for drawing") }
    }

    /// Bilinear, as a GPU's texture sampling is: a sharper filter costs several times the CPU
    /// per picture (measured here on 1080p: 2.5 ms bilinear, 7 ms with full-resolution chroma
    /// and accurate rounding) for a difference nobody sees at playback.
    private static let flags = SWS_BILINEAR

    private static func makeContext(for key: Key) throws(PlayerError) -> OpaquePointer {
        let format = AVPixelFormat(key.format)
        guard let sws = sws_alloc_context() else { throw .internalError("out of memory") }
        // Options rather than sws_getContext: only they tell libswscale where the chroma samples
        // sit (it assumes centred; H.264 is left-sited).
        let descriptor = av_pix_fmt_desc_get(format)
        let siting = key.chroma.resolved(for: key.range)
            .swscalePosition(log2Horizontal: Int(descriptor?.pointee.log2_chroma_w ?? 0),
                             log2Vertical: Int(descriptor?.pointee.log2_chroma_h ?? 0))
        let options: [(String, Int64)] = [
            ("srcw", Int64(key.width)), ("srch", Int64(key.height)), ("src_format", Int64(key.format)),
            ("dstw", Int64(key.outWidth)), ("dsth", Int64(key.outHeight)), ("dst_format", Int64(outputFormat.rawValue)),
            ("sws_flags", Int64(flags)),
            ("src_h_chr_pos", Int64(siting.horizontal)), ("src_v_chr_pos", Int64(siting.vertical)),
        ]
        for (name, value) in options { av_opt_set_int(UnsafeMutableRawPointer(sws), name, value, 0) }
        guard sws_init_context(sws, nil, nil) >= 0 else {
            sws_freeContext(sws)
            throw .internalError("cannot convert \(PixelFormat(format)) pictures for drawing")
        }
        let coefficients = sws_getCoefficients(key.matrix.swsColorspace)
        _ = sws_setColorspaceDetails(sws, coefficients, key.range == .full ? 1 : 0, coefficients, 1, 0, 1 << 16, 1 << 16)
        return sws
    }

    /// cairo's ARGB32 in memory order.
    private static var outputFormat: AVPixelFormat {
        #if _endian(little)
        AV_PIX_FMT_BGRA
        #else
        AV_PIX_FMT_ARGB
        #endif
    }
}
