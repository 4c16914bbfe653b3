import CFFmpeg
import Foundation

/// Reads what an opened input holds into `MediaInfo`, and picks the streams to play.
/// Threading: called on the thread that owns the input.
package enum MediaProbe {
    package static func info(of input: MediaInput) -> MediaInfo {
        let ctx = input.formatContext.pointee
        let format = ctx.iformat.pointee
        var streams: [StreamInfo] = []
        for i in 0..<input.streamCount { streams.append(streamInfo(input.stream(i))) }
        let metadata = describingTags(of: input, container: AVDictionaryReader.entries(ctx.metadata))
        let start = input.startTime
        var chapters: [Chapter] = []
        for i in 0..<Int(ctx.nb_chapters) {
            guard let c = ctx.chapters[i]?.pointee else { continue }
            let tb = av_q2d(c.time_base)
            chapters.append(Chapter(start: Double(c.start) * tb - start, end: Double(c.end) * tb - start,
                                    title: AVDictionaryReader.value(c.metadata, "title")))
        }
        let duration = ctx.duration != reel_nopts_value() && ctx.duration > 0
            ? Double(ctx.duration) / Double(AV_TIME_BASE) : nil
        let seekable = (ctx.pb.map { $0.pointee.seekable != 0 } ?? false) && duration != nil
        var info = MediaInfo(
            source: input.source.description,
            sourceName: input.source.displayName,
            container: String(cString: format.name),
            containerDescription: format.long_name.map { String(cString: $0) } ?? "",
            duration: duration,
            startTime: start,
            bitRate: ctx.bit_rate > 0 ? Int(ctx.bit_rate) : nil,
            title: metadata.first { $0.key.lowercased() == "title" }?.value,
            metadata: metadata,
            streams: streams,
            chapters: chapters,
            isSeekable: seekable,
            selectedVideoStream: nil,
            selectedAudioStream: nil)
        selectStreams(input, &info)
        return info
    }

    /// What describes the work (title, artist, ...). Ogg (Vorbis, Opus, FLAC or Theora in Ogg)
    /// has no container tags: each stream carries its own comment header, where FFmpeg leaves
    /// them; its first stream's descriptive tags fill what the container does not say. Other
    /// containers' stream titles name the track ("Commentary"), not the work, and stay there.
    private static func describingTags(of input: MediaInput, container: [String: String]) -> [String: String] {
        var tags = container
        let said = Set(container.keys.map { $0.lowercased() })
        guard input.streamCount > 0, String(cString: input.formatContext.pointee.iformat.pointee.name) == "ogg" else { return tags }
        let stream = AVDictionaryReader.entries(input.stream(0).pointee.metadata)
        for (key, value) in stream where describing.contains(key.lowercased()) && !said.contains(key.lowercased()) {
            tags[key] = value
        }
        return tags
    }

    private static let describing: Set<String> = [
        "title", "artist", "album", "album_artist", "composer", "performer", "genre", "date", "comment", "track",
    ]

    /// FFmpeg's choice of "best" streams; cover art (attached pictures) is not video to play.
    private static func selectStreams(_ input: MediaInput, _ info: inout MediaInfo) {
        let ctx = input.formatContext
        var video = av_find_best_stream(ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        if video >= 0, info.streams[Int(video)].isAttachedPicture || !hasDecoder(input, Int(video)) {
            video = -1
            for s in info.streams where s.kind == .video && !s.isAttachedPicture && hasDecoder(input, s.index) {
                video = Int32(s.index); break
            }
        }
        var audio = av_find_best_stream(ctx, AVMEDIA_TYPE_AUDIO, -1, video >= 0 ? video : -1, nil, 0)
        if audio >= 0, !hasDecoder(input, Int(audio)) {
            audio = -1
            for s in info.streams where s.kind == .audio && hasDecoder(input, s.index) {
                audio = Int32(s.index); break
            }
        }
        info.selectedVideoStream = video >= 0 ? Int(video) : nil
        info.selectedAudioStream = audio >= 0 ? Int(audio) : nil
    }

    package static func hasDecoder(_ input: MediaInput, _ index: Int) -> Bool {
        let par = input.stream(index).pointee.codecpar.pointee
        return par.codec_id != AV_CODEC_ID_NONE && avcodec_find_decoder(par.codec_id) != nil
    }

    private static func streamInfo(_ stream: UnsafeMutablePointer<AVStream>) -> StreamInfo {
        let s = stream.pointee
        let par = s.codecpar.pointee
        let kind: StreamInfo.Kind
        switch par.codec_type {
        case AVMEDIA_TYPE_VIDEO: kind = .video
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_SUBTITLE: kind = .subtitle
        case AVMEDIA_TYPE_DATA: kind = .data
        case AVMEDIA_TYPE_ATTACHMENT: kind = .attachment
        default: kind = .unknown
        }
        let descriptor = avcodec_descriptor_get(par.codec_id)
        let codec = par.codec_id == AV_CODEC_ID_NONE
            ? (tagName(par.codec_tag) ?? "unknown")
            : String(cString: avcodec_get_name(par.codec_id))
        var info = StreamInfo(
            index: Int(s.index), kind: kind, codec: codec,
            codecDescription: descriptor?.pointee.long_name.map { String(cString: $0) } ?? codec,
            profile: avcodec_profile_name(par.codec_id, par.profile).map { String(cString: $0) },
            bitRate: par.bit_rate > 0 ? Int(par.bit_rate) : nil,
            language: AVDictionaryReader.value(s.metadata, "language"),
            title: AVDictionaryReader.value(s.metadata, "title"),
            isDefault: (s.disposition & AV_DISPOSITION_DEFAULT) != 0,
            isAttachedPicture: (s.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0,
            rotation: 0)
        if kind == .video {
            info.width = Int(par.width)
            info.height = Int(par.height)
            info.pixelFormat = av_get_pix_fmt_name(AVPixelFormat(par.format)).map { String(cString: $0) }
            let sar = s.sample_aspect_ratio.num > 0 ? s.sample_aspect_ratio : par.sample_aspect_ratio
            info.sampleAspectRatio = sar.num > 0 && sar.den > 0 ? Rational(Int(sar.num), Int(sar.den)) : Rational(1, 1)
            let rate = s.avg_frame_rate.num > 0 && s.avg_frame_rate.den > 0 ? s.avg_frame_rate : s.r_frame_rate
            if rate.num > 0 && rate.den > 0 {
                info.frameRate = av_q2d(rate)
                info.frameRateRational = Rational(Int(rate.num), Int(rate.den))
            }
            info.rotation = rotation(of: stream)
            info.colour = PictureColour(primaries: ColorPrimaries(par.color_primaries),
                                        transfer: TransferFunction(par.color_trc), hdr: HDRMetadata(stream: stream))
            info.fieldOrder = FieldOrder(par.field_order)
            info.dolbyVision = DolbyVision(stream: stream)
        } else if kind == .audio {
            info.sampleRate = Int(par.sample_rate)
            info.channels = Int(par.ch_layout.nb_channels)
            var layout = par.ch_layout
            info.channelLayout = ChannelLayoutName.describe(&layout)
            info.sampleFormat = av_get_sample_fmt_name(AVSampleFormat(par.format)).map { String(cString: $0) }
        }
        return info
    }

    private static func rotation(of stream: UnsafeMutablePointer<AVStream>) -> Int {
        var size: Int = 0
        guard let side = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else { return 0 }
        let angle = av_display_rotation_get(UnsafeRawPointer(side).assumingMemoryBound(to: Int32.self))
        guard angle.isFinite else { return 0 }
        let degrees = Int((-angle).rounded())
        return ((degrees % 360) + 360) % 360
    }

    private static func tagName(_ tag: UInt32) -> String? {
        guard tag != 0 else { return nil }
        let bytes = [UInt8(tag & 0xff), UInt8((tag >> 8) & 0xff), UInt8((tag >> 16) & 0xff), UInt8(tag >> 24)]
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.allSatisfy({ $0.isASCII && !$0.isNewline }) ? text : nil
    }
}
