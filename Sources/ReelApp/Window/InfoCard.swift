import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// A card over the picture with what is playing and how it goes: container, codecs, size,
/// rate, frames shown and dropped, decode errors, deinterlacing, colours (HDR, tone mapping). It lives in the auxiliary-view slot: the
/// app's own use of the slot hosts get.
/// Threading: main thread only.
@MainActor
final class InfoCard {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private weak var view: PlayerView?
    private var timer: Timer?
    /// The height the host's header bar takes over the picture's top: the card goes below it,
    /// so that its first line never runs under the header's buttons.
    private let headerHeight: @MainActor () -> Double

    /// Where the card goes: at the left, just below the header bar.
    static func rect(below header: Double) -> AuxiliarySlot.Rect {
        AuxiliarySlot.Rect(x: 0.02, y: 0, width: 0.42, height: 0.34, top: header + 8)
    }

    init(view: PlayerView, below headerHeight: @escaping @MainActor () -> Double) {
        self.view = view
        self.headerHeight = headerHeight
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        // Held by this object, not only by the overlay: taken off the picture and put back
        // later, it must still exist.
        g_object_ref_sink(widget.raw.cast(to: GObject.self))
        label = gtk_label_new(nil)
        gtk_label_set_xalign(label.cast(), 0)
        gtk_label_set_yalign(label.cast(), 0)
        gtk_label_set_wrap(label.cast(), 1)
        gtk_label_set_selectable(label.cast(), 0)
        gtk_widget_set_valign(label, GTK_ALIGN_START)
        gtk_box_append(widget.cast(), label)
        gtk_widget_add_css_class(widget, "osd")
        gtk_widget_add_css_class(widget, "reel-info-card")
        gtk_widget_set_can_target(widget, 0)
        Accessibility.setLabel(widget, tr("Media information"))
    }

    var isShown: Bool { view?.auxiliarySlot.contains(widget) ?? false }

    func toggle() {
        guard let view else { return }
        if isShown {
            view.auxiliarySlot.remove(widget)
            timer?.cancel()
            timer = nil
        } else {
            view.auxiliarySlot.add(widget, at: Self.rect(below: headerHeight()))
            update()
            timer = Timer(seconds: 0.5) { [weak self] in self?.update(); return true }
        }
    }

    /// "OpenGL (renderer)" or "CPU (why)": what draws the pictures, and what GL there is.
    static func describe(_ output: VideoOutput) -> String {
        switch output.path {
        // Translators: %@ is the graphics renderer's name.
        case .gl: output.isAccelerated ? String(format: tr("OpenGL, %@"), output.rendererName)
            : String(format: tr("OpenGL, %@ (software)"), output.rendererName)
        // Translators: %@ says why OpenGL is not used, such as "chosen in Preferences".
        case .software: String(format: tr("by the processor: %@"), describe(output.why))
        }
    }

    /// Why a drawing path was taken, in the person's language (the graphics stack's own
    /// message, when there is no GL, stays as it gives it).
    static func describe(_ why: VideoOutput.Why) -> String {
        switch why {
        // Translators: %@ is the graphics stack's message (in English), such as "No GL implementation is available".
        case .noGL(let message): String(format: tr("no OpenGL: %@"), message)
        // Translators: REEL_VIDEO_OUTPUT is the name of an environment variable; keep it as it is.
        case .chosen(byEnvironment: true): tr("chosen by REEL_VIDEO_OUTPUT")
        case .chosen(byEnvironment: false): tr("chosen in Preferences")
        // Translators: OpenGL is there, but without a graphics card; %@ is the renderer's name, such as "llvmpipe".
        case .softwareGL(let renderer): String(format: tr("OpenGL would be drawn by the processor too (%@)"), renderer)
        // Translators: %@ is the graphics card's renderer name.
        case .acceleratedGL(let renderer): String(format: tr("OpenGL is accelerated (%@)"), renderer)
        }
    }

    /// "Deinterlacing: bwdif, 50 pictures/s, top field first".
    static func describe(_ status: DeinterlaceStatus) -> String {
        let rate = status.picturesPerSecond.map { String(format: tr(", %g pictures/s"), $0) } ?? ""
        let order = status.topFieldFirst.map { $0 ? tr(", top field first") : tr(", bottom field first") } ?? ""
        // Translators: %@ is the filter's name (bwdif), then its rate and field order.
        return String(format: tr("Deinterlacing: %@"), status.filter + rate + order)
    }

    /// What was found of the picture's colours and what is done to them, one line each:
    /// "Colour: HDR10 (PQ, BT.2020), mastering peak 1000 cd/m²", "Tone mapping: BT.2390 to SDR,
    /// luma", "Gamut: BT.2020 clipped to BT.709", "Dolby Vision profile 8.1, HDR10 base layer".
    static func describe(_ handling: ColourHandling) -> [String] {
        var lines: [String] = []
        let primaries = ColourHandling.name(of: handling.primaries)
        if let signal = handling.signal {
            var kind: String
            switch signal {
            case .hdr10: kind = tr("HDR10 (PQ, BT.2020)")
            // Translators: %@ names the primaries, such as "Display P3".
            case .pq: kind = String(format: tr("PQ (%@)"), primaries)
            // Translators: %@ names the primaries, such as "BT.2020".
            case .hlg: kind = String(format: tr("HLG (%@)"), primaries)
            // Translators: standard dynamic range in wide primaries; %@ names them, such as "BT.2020".
            case .wideGamutSDR: kind = String(format: tr("%@ SDR"), primaries)
            }
            if let peak = handling.peak, let source = handling.peakSource {
                let nits = ColourHandling.nits(peak)
                switch source {
                // Translators: %@ is the brightest light the film was graded for, in cd/m² (nits).
                case .mastering: kind += String(format: tr(", mastering peak %@ cd/m²"), nits)
                // Translators: %@ is the brightest pixel of the film (MaxCLL), in cd/m² (nits).
                case .contentLight: kind += String(format: tr(", MaxCLL %@ cd/m²"), nits)
                // Translators: %@ is a peak brightness taken by default, nothing saying otherwise.
                case .assumed: kind += String(format: tr(", peak %@ cd/m² assumed"), nits)
                }
            }
            // Translators: %@ says what kind of picture it is, such as "HDR10 (PQ, BT.2020)".
            lines.append(String(format: tr("Colour: %@"), kind))
            switch handling.mode {
            case .luma: lines.append(tr("Tone mapping: BT.2390 to SDR, luma"))
            case .hybrid: lines.append(tr("Tone mapping: BT.2390 to SDR, hybrid"))
            case .none: break
            }
            // Translators: %@ names the picture's primaries, such as "BT.2020".
            if handling.mapsGamut { lines.append(String(format: tr("Gamut: %@ clipped to BT.709"), primaries)) }
        }
        if let dv = handling.dolbyVision {
            switch dv.playback {
            // Translators: %@ is the Dolby Vision profile's name, such as "8.1".
            case .hdr10: lines.append(String(format: tr("Dolby Vision profile %@, HDR10 base layer"), dv.profileName))
            // Translators: %@ is the Dolby Vision profile's name, such as "8.4".
            case .hlg: lines.append(String(format: tr("Dolby Vision profile %@, HLG base layer"), dv.profileName))
            // Translators: %@ is the Dolby Vision profile's name, such as "8.2".
            case .sdr: lines.append(String(format: tr("Dolby Vision profile %@, SDR base layer"), dv.profileName))
            // Translators: %@ is the Dolby Vision profile's name, such as "5".
            case .unsupported: lines.append(String(format: tr("Dolby Vision profile %@: colours will be wrong"), dv.profileName))
            }
        }
        return lines
    }

    /// The picture on screen's colours (its own tags and side data, as it is drawn), else the
    /// stream's as probed.
    private static func colourHandling(_ view: PlayerView, stream: StreamInfo?) -> ColourHandling? {
        if let shown = view.movie.shown { return ColourHandling(colour: shown.colour, dolbyVision: stream?.dolbyVision) }
        return stream.flatMap(ColourHandling.init(stream:))
    }

    private func update() {
        guard let view else { return }
        var lines: [String] = []
        if let info = view.model.mediaInfo {
            lines.append(info.sourceName)
            lines.append("\(info.containerDescription.isEmpty ? info.container : info.containerDescription)"
                         + (info.duration.map { ", \(TimeFormat.clock($0))" } ?? ""))
            if let v = info.videoStream {
                let fps = v.frameRate.map { String(format: " %.3g fps", $0) } ?? ""
                // Translators: the video stream: codec, width×height, frame rate and pixel format.
                lines.append(String(format: tr("Video: %@"), "\(v.codec) \(v.width ?? 0)×\(v.height ?? 0)\(fps) \(v.pixelFormat ?? "")"))
            }
            if let a = info.audioStream {
                // Translators: the audio stream: codec, sample rate and channel layout.
                lines.append(String(format: tr("Audio: %@"), "\(a.codec) \(a.sampleRate ?? 0) Hz, \(ChannelNames.describe(channels: a.channels, layout: a.channelLayout) ?? "?")"))
            }
        } else {
            lines.append(tr("Nothing is open"))
        }
        if let stats = Optional(view.player.statistics) {
            // Translators: %1$ld frames were shown, %2$ld dropped.
            lines.append(String(format: tr("Frames: %1$ld shown, %2$ld dropped"), stats.framesShown, stats.framesDropped))
            if stats.decodeErrors > 0 { lines.append(String(format: tr("Decode errors: %ld"), stats.decodeErrors)) }
            if let output = stats.audioOutput {
                lines.append(String(format: tr("Sound: %@"), "\(output)\(stats.audioFormat.map { ", \($0)" } ?? "")"))
            }
        }
        lines.append(String(format: tr("Drawing: %@"), Self.describe(view.movie.output)))
        if let status = view.model.deinterlacing, status.isActive { lines.append(Self.describe(status)) }
        if let handling = Self.colourHandling(view, stream: view.model.mediaInfo?.videoStream) {
            lines += Self.describe(handling)
        }
        if !view.model.equalizer.isNeutral { lines.append(EqualizerControl.summary(view.model.equalizer)) }
        let subtitles = view.model.subtitles
        if let track = subtitles.selected {
            let delay = subtitles.delay != 0
                ? String(format: tr(", delay %@"), SubtitleController.delayText(subtitles.delay)) : ""
            // Translators: the subtitle track: its name, then codec, text encoding and delay in brackets.
            lines.append(String(format: tr("Subtitles: %@"),
                                "\(track.displayName) (\(track.codec)\(track.charset.map { ", \($0)" } ?? "")\(delay))"))
        }
        gtk_label_set_text(label.cast(), lines.joined(separator: "\n"))
    }
}
