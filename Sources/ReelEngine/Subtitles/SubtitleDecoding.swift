import CFFmpeg
import Foundation

/// Reads every packet of some subtitle streams of an opened input and decodes them with
/// libavcodec into cues: text formats come out as ASS events (FFmpeg's own SRT, WebVTT,
/// mov_text, ... decoders do the parsing), bitmap formats as RGBA pictures. Subtitles are
/// small, so a whole track is decoded at once and switching tracks is instant.
/// Threading: runs on the caller's thread, which owns the input for the duration.
enum SubtitleDecoding {
    /// Cues longer than this are cut (a missing or absurd end time must not cover the film).
    static let longestCue = 60.0 * 10

    struct Stream {
        let index: Int
        let track: SubtitleTrack
    }

    /// Decodes `streams` of `input`; streams whose decoder cannot open are left out.
    /// `origin` is the media's start time, subtracted so cues count from 0 like every position.
    static func decode(_ input: MediaInput, streams: [Stream], origin: Double,
                       stop: () -> Bool = { false }) -> [DecodedSubtitles] {
        var decoders: [Int: (UnsafeMutablePointer<AVCodecContext>, Int)] = [:]
        var results: [DecodedSubtitles] = []
        for stream in streams {
            guard let ctx = openDecoder(input.stream(stream.index)) else { continue }
            decoders[stream.index] = (ctx, results.count)
            results.append(empty(stream.track, decoder: ctx))
        }
        defer { for (ctx, _) in decoders.values { var c: UnsafeMutablePointer<AVCodecContext>? = ctx; avcodec_free_context(&c) } }
        input.keepOnly(streams: Set(decoders.keys))
        let packet = Packet()
        var errors = 0
        while !stop() {
            let result = input.read(into: packet)
            if result == FFmpegError.again { usleep(2_000); continue }
            if result < 0 {
                // Damaged input: give the demuxer a few chances to resynchronise.
                if result != FFmpegError.eof, errors < 32 { errors += 1; continue }
                break
            }
            defer { packet.unref() }
            guard let (ctx, slot) = decoders[packet.streamIndex] else { continue }
            let tb = input.stream(packet.streamIndex).pointee.time_base
            decodePacket(ctx, packet, timeBase: tb, origin: origin, into: &results[slot])
        }
        for i in results.indices { finish(&results[i]) }
        return results
    }

    /// A track with no cues yet, with what its decoder says of it (the ASS header, the canvas).
    static func empty(_ track: SubtitleTrack, decoder ctx: UnsafeMutablePointer<AVCodecContext>) -> DecodedSubtitles {
        DecodedSubtitles(track: track, header: ctx.pointee.subtitle_header.map { headerText(ctx, $0) },
                         canvasWidth: Int(ctx.pointee.width), canvasHeight: Int(ctx.pointee.height),
                         cues: [], isStyled: ["ass", "ssa"].contains(track.codec))
    }

    private static func headerText(_ ctx: UnsafeMutablePointer<AVCodecContext>, _ bytes: UnsafeMutablePointer<UInt8>) -> String {
        let size = Int(ctx.pointee.subtitle_header_size)
        return String(decoding: UnsafeBufferPointer(start: bytes, count: size), as: UTF8.self)
    }

    static func openDecoder(_ stream: UnsafeMutablePointer<AVStream>) -> UnsafeMutablePointer<AVCodecContext>? {
        let par = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(par.pointee.codec_id),
              let ctx = avcodec_alloc_context3(codec) else { return nil }
        guard avcodec_parameters_to_context(ctx, par) >= 0 else {
            var c: UnsafeMutablePointer<AVCodecContext>? = ctx; avcodec_free_context(&c); return nil
        }
        ctx.pointee.pkt_timebase = stream.pointee.time_base
        guard avcodec_open2(ctx, codec, nil) >= 0 else {
            var c: UnsafeMutablePointer<AVCodecContext>? = ctx; avcodec_free_context(&c); return nil
        }
        return ctx
    }

    static func decodePacket(_ ctx: UnsafeMutablePointer<AVCodecContext>, _ packet: Packet,
                                     timeBase: AVRational, origin: Double, into decoded: inout DecodedSubtitles) {
        var sub = AVSubtitle()
        var got: Int32 = 0
        guard avcodec_decode_subtitle2(ctx, &sub, &got, packet.pointer) >= 0, got != 0 else { return }
        defer { avsubtitle_free(&sub) }
        let base: Double
        if sub.pts != reel_nopts_value() {
            base = Double(sub.pts) / Double(AV_TIME_BASE)
        } else if packet.pts != reel_nopts_value() {
            base = Double(packet.pts) * av_q2d(timeBase)
        } else {
            return
        }
        let start = base + Double(sub.start_display_time) / 1000 - origin
        var end = Double.infinity
        if sub.end_display_time > 0 && sub.end_display_time != UInt32.max {
            end = base + Double(sub.end_display_time) / 1000 - origin
        } else if packet.duration > 0 {
            end = base + Double(packet.duration) * av_q2d(timeBase) - origin
        }
        var texts: [String] = []
        var bitmaps: [SubtitleBitmap] = []
        for i in 0..<Int(sub.num_rects) {
            guard let rect = sub.rects[i]?.pointee else { continue }
            switch rect.type {
            case SUBTITLE_ASS:
                if let ass = rect.ass { texts.append(String(cString: ass)) }
            case SUBTITLE_BITMAP:
                if let bitmap = expand(rect) { bitmaps.append(bitmap) }
            default:
                break
            }
        }
        // A bitmap subtitle without rectangles clears the screen: it ends the one before.
        if decoded.track.isBitmap, let last = decoded.cues.indices.last, decoded.cues[last].end > start {
            decoded.cues[last].end = max(decoded.cues[last].start, start)
        }
        for text in texts {
            // A cue of megabytes (a stream can carry one too) would take libass gigabytes to draw.
            decoded.cues.append(SubtitleCue(start: start, end: end, content: .ass(SubtitleLines.cut(text))))
        }
        if !bitmaps.isEmpty {
            decoded.cues.append(SubtitleCue(start: start, end: end, content: .bitmaps(bitmaps)))
        }
    }

    /// Palette indices to RGBA (the palette holds native-endian 0xAARRGGBB words).
    private static func expand(_ rect: AVSubtitleRect) -> SubtitleBitmap? {
        let w = Int(rect.w), h = Int(rect.h)
        guard w > 0, h > 0, w * h <= 4096 * 4096, let indices = rect.data.0, let paletteBytes = rect.data.1 else { return nil }
        let stride = Int(rect.linesize.0)
        // The plane holds `stride` bytes a row: a narrower stride would read past its end.
        guard stride >= w else { return nil }
        let palette = UnsafeRawPointer(paletteBytes).assumingMemoryBound(to: UInt32.self)
        let colours = max(1, min(256, Int(rect.nb_colors)))
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let index = Int(indices[y * stride + x])
                guard index < colours else { continue }
                let c = palette[index]
                let o = (y * w + x) * 4
                rgba[o] = UInt8((c >> 16) & 0xFF)
                rgba[o + 1] = UInt8((c >> 8) & 0xFF)
                rgba[o + 2] = UInt8(c & 0xFF)
                rgba[o + 3] = UInt8(c >> 24)
            }
        }
        return SubtitleBitmap(x: Int(rect.x), y: Int(rect.y), width: w, height: h, rgba: rgba)
    }

    /// Sorts the cues, gives open-ended ones an end (the next cue's start), and drops what can
    /// never be shown (ends before it starts, entirely before the media starts).
    static func finish(_ decoded: inout DecodedSubtitles) {
        decoded.cues.sort { $0.start < $1.start }
        for i in decoded.cues.indices where !decoded.cues[i].end.isFinite {
            let next = decoded.cues[(i + 1)...].first { $0.start > decoded.cues[i].start }?.start
            decoded.cues[i].end = next ?? decoded.cues[i].start + (decoded.track.isBitmap ? longestCue : 5)
        }
        for i in decoded.cues.indices {
            decoded.cues[i].end = min(decoded.cues[i].end, decoded.cues[i].start + longestCue)
        }
        decoded.cues.removeAll { $0.end <= $0.start || $0.end <= 0 }
    }
}
