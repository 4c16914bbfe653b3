import CFFmpeg
import Foundation

/// Turns decoded frames into bytes for people and oracles: MD5 of packed planes, RGB, PNG.
/// Threading: stateless; callable from any thread on a frame nobody is writing.
package enum FrameExport {
    package static func md5(of frame: Frame) -> String {
        let f = frame.pointer
        let format = AVPixelFormat(f.pointee.format)
        let size = av_image_get_buffer_size(format, f.pointee.width, f.pointee.height, 1)
        guard size > 0 else { return "" }
        var buffer = [UInt8](repeating: 0, count: Int(size))
        withUnsafePointer(to: &f.pointee.data) { dataTuple in
            dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                withUnsafePointer(to: &f.pointee.linesize) { lineTuple in
                    lineTuple.withMemoryRebound(to: Int32.self, capacity: 8) { lines in
                        _ = av_image_copy_to_buffer(&buffer, size, data, lines, format,
                                                    f.pointee.width, f.pointee.height, 1)
                    }
                }
            }
        }
        var digest = [UInt8](repeating: 0, count: 16)
        av_md5_sum(&digest, buffer, Int(size))
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// Converts to packed RGB24 (or `format`, another packed RGB layout) at `width`×`height`,
    /// honouring the frame's matrix and range.
    package static func rgbFrame(of frame: Frame, width: Int, height: Int,
                         format: AVPixelFormat = AV_PIX_FMT_RGB24) throws(PlayerError) -> Frame {
        let src = frame.pointer
        let srcFormat = AVPixelFormat(src.pointee.format)
        let matrix = ColorMatrix(src.pointee.colorspace, height: Int(src.pointee.height))
        let range = ColorRange(src.pointee.color_range, format: srcFormat)
        // Built with options rather than sws_getContext, to tell libswscale where the chroma
        // samples sit (it assumes centred; H.264 is left-sited), as the GL renderer does.
        guard let sws = sws_alloc_context() else { throw .internalError("out of memory") }
        defer { sws_freeContext(sws) }
        let descriptor = av_pix_fmt_desc_get(srcFormat)
        let siting = ChromaLocation(src.pointee.chroma_location).resolved(for: range)
            .swscalePosition(log2Horizontal: Int(descriptor?.pointee.log2_chroma_w ?? 0),
                             log2Vertical: Int(descriptor?.pointee.log2_chroma_h ?? 0))
        let options: [(String, Int64)] = [
            ("srcw", Int64(src.pointee.width)), ("srch", Int64(src.pointee.height)),
            ("src_format", Int64(srcFormat.rawValue)),
            ("dstw", Int64(width)), ("dsth", Int64(height)), ("dst_format", Int64(format.rawValue)),
            ("sws_flags", Int64(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)),
            ("src_h_chr_pos", Int64(siting.horizontal)), ("src_v_chr_pos", Int64(siting.vertical)),
        ]
        for (name, value) in options { av_opt_set_int(UnsafeMutableRawPointer(sws), name, value, 0) }
        guard sws_init_context(sws, nil, nil) >= 0 else {
            throw .internalError("cannot convert \(PixelFormat(srcFormat)) to RGB")
        }
        let coefficients = sws_getCoefficients(matrix.swsColorspace)
        _ = sws_setColorspaceDetails(sws, coefficients, range == .full ? 1 : 0,
                                     coefficients, 1, 0, 1 << 16, 1 << 16)
        let out = Frame()
        out.pointer.pointee.format = format.rawValue
        out.pointer.pointee.width = Int32(width)
        out.pointer.pointee.height = Int32(height)
        guard av_frame_get_buffer(out.pointer, 0) >= 0 else { throw .internalError("out of memory") }
        let result = withUnsafePointer(to: &src.pointee.data) { sData in
            sData.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sd in
                withUnsafePointer(to: &src.pointee.linesize) { sLines in
                    sLines.withMemoryRebound(to: Int32.self, capacity: 8) { sl in
                        withUnsafePointer(to: &out.pointer.pointee.data) { dData in
                            dData.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { dd in
                                withUnsafePointer(to: &out.pointer.pointee.linesize) { dLines in
                                    dLines.withMemoryRebound(to: Int32.self, capacity: 8) { dl in
                                        sws_scale(sws, sd, sl, 0, src.pointee.height, dd, dl)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard result > 0 else { throw .internalError("colour conversion failed") }
        return out
    }

    package static func rgb24(of frame: Frame, width: Int, height: Int) throws(PlayerError) -> Data {
        let rgb = try rgbFrame(of: frame, width: width, height: height)
        let line = Int(rgb.pointer.pointee.linesize.0)
        guard let base = rgb.pointer.pointee.data.0 else { return Data() }
        var data = Data(capacity: width * height * 3)
        for row in 0..<height {
            data.append(base + row * line, count: width * 3)
        }
        return data
    }

    /// Packed 8-bit RGBA rows (`width * 4` bytes each, alpha opaque) at `width`×`height`.
    package static func rgba(of frame: Frame, width: Int, height: Int) throws(PlayerError) -> Data {
        let rgba = try rgbFrame(of: frame, width: width, height: height, format: AV_PIX_FMT_RGBA)
        let line = Int(rgba.pointer.pointee.linesize.0)
        guard let base = rgba.pointer.pointee.data.0 else { return Data() }
        if line == width * 4 { return Data(bytes: base, count: width * 4 * height) }
        var data = Data(capacity: width * height * 4)
        for row in 0..<height {
            data.append(base + row * line, count: width * 4)
        }
        return data
    }

    /// The picture as PNG with square pixels, turned `degrees` clockwise (multiples of 90: the
    /// stream's display rotation, so the image looks as the player shows it).
    /// `overlay` draws over the turned picture (subtitles) at the picture's final size.
    /// `finished`, the same picture with a `ColourPlan`, is drawn as the software path draws
    /// it (tone-mapped, gamut-mapped) instead of through libswscale's matrix alone.
    package static func png(of frame: Frame, clockwise degrees: Int = 0, finished: VideoFrame? = nil,
                    overlay: ((_ width: Int, _ height: Int) -> SubtitleImage?)? = nil) throws(PlayerError) -> Data {
        let f = frame.pointer.pointee
        let sar = f.sample_aspect_ratio
        // Square pixels in the image: widen by the sample aspect ratio, as a player shows it.
        var width = Int(f.width)
        if sar.num > 0 && sar.den > 0 && sar.num != sar.den {
            width = Int((Double(f.width) * Double(sar.num) / Double(sar.den)).rounded())
            width += width % 2
        }
        let height = Int(f.height)
        let quarter = (((degrees % 360) + 360) % 360 / 90) % 2 == 1
        // Drawn first, so a moment without subtitles takes the plain path below.
        let subtitles = overlay?(quarter ? height : width, quarter ? width : height)
        guard degrees % 360 != 0 || subtitles != nil || finished != nil else {
            return try encodePNG(try rgbFrame(of: frame, width: width, height: height), format: AV_PIX_FMT_RGB24)
        }
        let pixels = if let finished { try finishedRGBA(finished, width: width, height: height) }
                     else { try rgba(of: frame, width: width, height: height) }
        var turned = PictureRotation.rotate(pixels,
                                            width: width, height: height, clockwise: degrees)
        if let image = subtitles, image.width == turned.width, image.height == turned.height {
            image.composite(over: &turned.pixels)
        }
        return try png(rgba: turned.pixels, width: turned.width, height: turned.height)
    }

    /// The picture (or its `region`) through `FrameScaler` (zimg and `RGBFinisher`) as packed
    /// RGBA rows at `width`×`height`: tone-mapped as the software path draws it. `scaler` keeps
    /// its stages (the colour plan's tables) for the next picture of the same kind.
    package static func finishedRGBA(_ video: VideoFrame, region: SourceRegion? = nil, equalizer: Equalizer = .neutral,
                             width: Int, height: Int, scaler: FrameScaler = FrameScaler()) throws(PlayerError) -> Data {
        let count = width * height * 4
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        defer { buffer.deallocate() }
        try scaler.scale(video, region: region, equalizer: equalizer, width: width, height: height, into: buffer,
                         bytesPerRow: width * 4)
        // BGRA in memory (cairo's ARGB32 on little-endian) to RGBA.
        let p = buffer.assumingMemoryBound(to: UInt8.self)
        for i in 0..<(width * height) { (p[4 * i], p[4 * i + 2]) = (p[4 * i + 2], p[4 * i]) }
        return Data(bytes: buffer, count: count)
    }

    /// Packed 8-bit RGBA rows (`width * 4` bytes each) as PNG.
    package static func png(rgba pixels: Data, width: Int, height: Int) throws(PlayerError) -> Data {
        guard width > 0, height > 0, pixels.count >= width * height * 4 else {
            throw .internalError("no \(width)×\(height) picture in \(pixels.count) bytes")
        }
        let picture = Frame()
        picture.pointer.pointee.width = Int32(width)
        picture.pointer.pointee.height = Int32(height)
        picture.pointer.pointee.format = AV_PIX_FMT_RGBA.rawValue
        guard av_frame_get_buffer(picture.pointer, 0) >= 0, let base = picture.pointer.pointee.data.0 else {
            throw .internalError("out of memory for a \(width)×\(height) picture")
        }
        let line = Int(picture.pointer.pointee.linesize.0)
        pixels.withUnsafeBytes { bytes in
            for row in 0..<height {
                (base + row * line).update(from: bytes.baseAddress!.advanced(by: row * width * 4)
                    .assumingMemoryBound(to: UInt8.self), count: width * 4)
            }
        }
        return try encodePNG(picture, format: AV_PIX_FMT_RGBA)
    }

    private static func encodePNG(_ picture: Frame, format: AVPixelFormat) throws(PlayerError) -> Data {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG),
              let ctx = avcodec_alloc_context3(codec)
        else { throw .internalError("PNG encoder unavailable") }
        var owned: UnsafeMutablePointer<AVCodecContext>? = ctx
        defer { avcodec_free_context(&owned) }
        ctx.pointee.width = picture.pointer.pointee.width
        ctx.pointee.height = picture.pointer.pointee.height
        ctx.pointee.pix_fmt = format
        ctx.pointee.time_base = AVRational(num: 1, den: 25)
        guard avcodec_open2(ctx, codec, nil) >= 0 else { throw .internalError("cannot open PNG encoder") }
        guard avcodec_send_frame(ctx, picture.pointer) >= 0 else { throw .internalError("PNG encoding failed") }
        avcodec_send_frame(ctx, nil)
        let packet = Packet()
        guard avcodec_receive_packet(ctx, packet.pointer) >= 0 else { throw .internalError("PNG encoding failed") }
        return Data(bytes: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size))
    }
}
