import ReelCommandLine
import ReelEngine

/// `reel-tool info`'s JSON shape for probed media. Threading: pure functions.
enum MediaInfoJSON {
    static func object(_ info: MediaInfo) -> [String: Any] {
        [
            "source": info.source,
            "duration": info.duration.map { Output.round($0) } as Any,
            "start_time": Output.round(info.startTime),
            "container": info.container,
            "container_name": info.containerDescription,
            "bit_rate": info.bitRate as Any,
            "title": info.title as Any,
            "web_page": info.webPage as Any,
            "metadata": info.metadata,
            "seekable": info.isSeekable,
            "video_stream": info.selectedVideoStream as Any,
            "audio_stream": info.selectedAudioStream as Any,
            "streams": info.streams.map(stream),
            "chapters": info.chapters.map { c in
                ["start": Output.round(c.start), "end": Output.round(c.end), "title": c.title as Any] as [String: Any]
            },
        ]
    }

    static func stream(_ s: StreamInfo) -> [String: Any] {
        var o: [String: Any] = [
            "index": s.index, "type": s.kind.rawValue, "codec": s.codec, "codec_name": s.codecDescription,
            "default": s.isDefault,
        ]
        if let v = s.profile { o["profile"] = v }
        if let v = s.bitRate { o["bit_rate"] = v }
        if let v = s.language { o["language"] = v }
        if let v = s.title { o["title"] = v }
        if s.isAttachedPicture { o["attached_picture"] = true }
        if s.kind == .video {
            o["width"] = s.width as Any
            o["height"] = s.height as Any
            o["pixel_format"] = s.pixelFormat as Any
            o["fps"] = s.frameRate.map { Output.round($0, 3) } as Any
            o["frame_rate"] = s.frameRateRational.map { "\($0.numerator)/\($0.denominator)" } as Any
            o["sample_aspect_ratio"] = s.sampleAspectRatio?.description as Any
            if s.rotation != 0 { o["rotation"] = s.rotation }
            if let colour = s.colour { o.merge(Self.colour(colour), uniquingKeysWith: { $1 }) }
            if let order = s.fieldOrder { o["field_order"] = order.rawValue }
            if let dv = s.dolbyVision {
                o["dolby_vision"] = ["profile": dv.profile, "level": dv.level, "compatibility": dv.compatibility,
                                     "plays_as": dv.playback.rawValue] as [String: Any]
            }
            if let handling = ColourHandling(stream: s) { o["colour_handling"] = ColourJSON.object(handling) }
        }
        if s.kind == .audio {
            o["sample_rate"] = s.sampleRate as Any
            o["channels"] = s.channels as Any
            o["channel_layout"] = s.channelLayout as Any
            o["sample_format"] = s.sampleFormat as Any
        }
        return o
    }

    /// Primaries and transfer by FFmpeg's names (as `ffprobe` prints them), and the HDR
    /// metadata that is present: the mastering display's peak and black in cd/m², MaxCLL, MaxFALL.
    static func colour(_ c: PictureColour) -> [String: Any] {
        var o: [String: Any] = ["color_primaries": c.primaries.rawValue, "color_transfer": c.transfer.rawValue]
        if let peak = c.hdr?.mastering?.maxLuminance { o["mastering_peak"] = Output.round(peak, 4) }
        if let black = c.hdr?.mastering?.minLuminance { o["mastering_black"] = Output.round(black, 4) }
        if let cll = c.hdr?.maxCLL { o["max_cll"] = cll }
        if let fall = c.hdr?.maxFALL { o["max_fall"] = fall }
        return o
    }
}
