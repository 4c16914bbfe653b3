import CAss
import Foundation

/// libass around one track at a time: loads a decoded track's header and events, and draws the
/// events of a moment at a given size (sharp at any size: text is rasterised for that size).
/// Threading: not thread-safe; its owner (`SubtitleComposer`) serialises every call.
final class AssRenderer {
    private let library: OpaquePointer
    private let renderer: OpaquePointer
    private var track: UnsafeMutablePointer<ASS_Track>?
    /// What `track` was built from: which track, in which style.
    private var loadedKey: (id: Int, style: SubtitleStyle)?
    private var lastLift = 0.0

    init?() {
        guard let library = ass_library_init() else { return nil }
        // libass reports every font lookup on stderr by default; Reel's tools keep stderr for errors.
        ass_set_message_cb(library, { _, _, _, _ in }, nil)
        guard let renderer = ass_renderer_init(library) else { ass_library_done(library); return nil }
        self.library = library
        self.renderer = renderer
        // Embedded fonts in Matroska attachments are not extracted; fontconfig finds the rest.
        ass_set_fonts(renderer, nil, "sans-serif", Int32(ASS_FONTPROVIDER_AUTODETECT.rawValue), nil, 1)
    }

    deinit {
        if let track { ass_free_track(track) }
        ass_renderer_done(renderer)
        ass_library_done(library)
    }

    /// Makes `decoded` the current track in `style`, rebuilding only when either changed.
    func load(_ decoded: DecodedSubtitles, style: SubtitleStyle) {
        if let key = loadedKey, key.id == decoded.track.id, key.style == style, track != nil { return }
        if let track { ass_free_track(track) }
        track = ass_new_track(library)
        loadedKey = (decoded.track.id, style)
        guard let track else { return }
        // Plain formats get the person's style; styled formats keep theirs unless overridden.
        var header = decoded.isStyled ? (decoded.header ?? style.header) : style.header
        header.withUTF8 { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            defer { copy.deallocate() }
            bytes.withMemoryRebound(to: CChar.self) { copy.update(from: $0.baseAddress!, count: bytes.count) }
            copy[bytes.count] = 0
            ass_process_codec_private(track, copy, Int32(bytes.count))
        }
        for cue in decoded.cues {
            guard case .ass(var line) = cue.content else { continue }
            let start = Int64((cue.start * 1000).rounded())
            let duration = Int64(((cue.end - cue.start) * 1000).rounded())
            line.withUTF8 { bytes in
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                defer { copy.deallocate() }
                bytes.withMemoryRebound(to: CChar.self) { copy.update(from: $0.baseAddress!, count: bytes.count) }
                copy[bytes.count] = 0
                ass_process_chunk(track, copy, Int32(bytes.count), start, duration)
            }
        }
        applyOverride(decoded.isStyled && style.overridesStyledSubtitles ? style : nil)
    }

    /// The person's style over an ASS script's own styles (fonts, sizes, colours, borders,
    /// margins); positioning and karaoke tags in the events still apply.
    private func applyOverride(_ style: SubtitleStyle?) {
        guard let style else { ass_set_selective_style_override_enabled(renderer, 0); return }
        func rgba(_ rgb: UInt32, _ opacity: Double) -> UInt32 {
            (rgb << 8) | UInt32((1 - max(0, min(1, opacity))) * 255)
        }
        "Default".withCString { name in
            style.font.withCString { font in
                var s = ASS_Style()
                s.Name = UnsafeMutablePointer(mutating: name)
                s.FontName = UnsafeMutablePointer(mutating: font)
                s.FontSize = style.size.points
                s.PrimaryColour = rgba(style.color, 1)
                s.SecondaryColour = rgba(style.color, 1)
                s.OutlineColour = style.backgroundBox ? rgba(style.backgroundColor, style.backgroundOpacity) : rgba(style.outlineColor, 1)
                s.BackColour = style.backgroundBox ? rgba(style.backgroundColor, style.backgroundOpacity) : rgba(0, 0.5)
                s.Bold = style.bold ? 1 : 0
                s.ScaleX = 1; s.ScaleY = 1
                s.BorderStyle = style.backgroundBox ? 3 : 1
                s.Outline = style.outline
                s.Shadow = style.backgroundBox ? 0 : style.shadow
                s.Alignment = 2
                s.MarginL = 16; s.MarginR = 16; s.MarginV = Int32(style.marginV)
                s.Encoding = 1
                ass_set_selective_style_override(renderer, &s)
            }
        }
        let bits = ASS_OVERRIDE_BIT_FONT_NAME.rawValue | ASS_OVERRIDE_BIT_FONT_SIZE_FIELDS.rawValue
            | ASS_OVERRIDE_BIT_COLORS.rawValue | ASS_OVERRIDE_BIT_BORDER.rawValue | ASS_OVERRIDE_BIT_MARGINS.rawValue
        ass_set_selective_style_override_enabled(renderer, Int32(bits))
    }

    /// Draws what is on screen at `time` into a `width`×`height` picture showing a video of
    /// `videoWidth`×`videoHeight` (for the aspect); nil when nothing is shown. `changed` is
    /// false when libass says the result equals the previous call's.
    /// `lift`: how far bottom subtitles move up, in percent of the height (controls showing).
    func render(at time: Double, width: Int, height: Int, videoWidth: Int, videoHeight: Int,
                lift: Double = 0) -> (SubtitleImage?, changed: Bool) {
        guard let track, width > 0, height > 0 else { return (nil, true) }
        if lift != lastLift {
            ass_set_line_position(renderer, max(0, min(100, lift)))
            lastLift = lift
        }
        ass_set_frame_size(renderer, Int32(width), Int32(height))
        ass_set_storage_size(renderer, Int32(max(1, videoWidth)), Int32(max(1, videoHeight)))
        var change: Int32 = 0
        var node = ass_render_frame(renderer, track, Int64((time * 1000).rounded()), &change)
        guard node != nil else { return (nil, change != 0) }
        var image = SubtitleImage(width: width, height: height)
        while let current = node {
            let i = current.pointee
            if let bitmap = i.bitmap, i.w > 0, i.h > 0 {
                let c = i.color
                image.blend(mask: bitmap, stride: Int(i.stride), x: Int(i.dst_x), y: Int(i.dst_y),
                            w: Int(i.w), h: Int(i.h), red: Int(reel_ass_red(c)), green: Int(reel_ass_green(c)),
                            blue: Int(reel_ass_blue(c)), opacity: Int(reel_ass_opacity(c)))
            }
            node = i.next
        }
        return (image.boundsRect.w > 0 ? image : nil, change != 0)
    }
}
