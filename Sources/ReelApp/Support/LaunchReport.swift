import Foundation
import ReelEngine
import ReelGtk

/// `--report` and `--exit-after`, for measurement and scripts: JSON lines on stdout (how pictures
/// are drawn, the first picture drawn, what is done to its colours, each warning of the player,
/// loudness levelling switched, a summary at quit) and a quit
/// that many seconds after the first picture.
/// Threading: main thread only.
@MainActor
final class LaunchReport {
    /// What the summary reports, read from the window as the app quits.
    struct Summary {
        var framesDrawn: Int
        /// Of them, put into the window past GTK's drawing (X11's direct put).
        var picturesPutDirectly = 0
        var statistics: PlaybackStatistics?
    }

    private let prints: Bool
    private let exitAfter: Double?
    private let quit: @MainActor () -> Void
    private var firstDrawn: Double?
    private var exitTimer: Timer?
    private var finished = false
    private var following: ObservationToken?
    private var levelling = false

    /// Nil when neither option was given: the app then reports nothing and never quits by itself.
    init?(options: CommandLineOptions.Measure, quit: @escaping @MainActor () -> Void) {
        guard options.isRequested else { return nil }
        prints = options.report
        exitAfter = options.exitAfter
        self.quit = quit
    }

    /// How pictures are drawn, said once at start (and whether on a Wayland subsurface, or put
    /// straight into an X11 window while nothing is over them).
    func videoOutput(_ output: VideoOutput, subsurface: SubsurfaceChoice, directPut: DirectPutChoice) {
        var event: [String: Any] = ["event": "video_output", "path": output.path.rawValue, "gl_renderer": output.rendererName,
                                    "accelerated": output.isAccelerated, "reason": output.reason,
                                    "subsurface": subsurface.isUsed, "subsurface_reason": subsurface.reason,
                                    "direct_put": directPut.isUsed, "direct_put_reason": directPut.reason]
        // "OpenGL ES 3.2 Mesa …" where GTK made an ES context (GLES, or GDK_DEBUG=gl-gles).
        if case .success(let info) = output.gl { event["gl_version"] = info.version }
        emit(event)
    }

    /// Reports the player's warnings as they come (their code and their English text), and
    /// what is done to interlaced pictures each time it changes.
    func follow(_ model: PlayerModel) {
        following = model.observe { [weak self, unowned model] change in
            if change.aspects.contains(.picture), let status = model.deinterlacing {
                var line: [String: Any] = ["event": "deinterlacing", "mode": status.mode.rawValue, "active": status.isActive]
                if status.isActive {
                    line["filter"] = status.filter
                    if let rate = status.picturesPerSecond { line["pictures_per_second"] = rate }
                    if let tff = status.topFieldFirst { line["field_order"] = tff ? "tff" : "bff" }
                }
                self?.emit(line)
            }
            if change.contains(.sound), let self, model.sound.isLevelling != self.levelling {
                self.levelling = model.sound.isLevelling
                self.emit(["event": "levelling", "on": self.levelling])
            }
            switch change.moment {
            case .warning(let warning):
                self?.emit(["event": "warning", "code": warning.code, "message": warning.description])
            case .pictureDecodedAhead(let time):
                self?.emit(["event": "picture_decoded_ahead", "at": time])
            default:
                break
            }
        }
    }

    /// The first picture of a file reached the screen: what Reel found of its colours and does
    /// to them (a "colour" line, when it is not plain SDR BT.709, and again when it changes).
    func firstPictureOfFile(_ picture: VideoFrame?, stream: StreamInfo?) {
        let handling = picture.flatMap { ColourHandling(colour: $0.colour, dolbyVision: stream?.dolbyVision) }
            ?? stream.flatMap(ColourHandling.init(stream:))
        if let handling, handling != lastColour {
            var line: [String: Any] = ["event": "colour", "transfer": handling.transfer.rawValue,
                                       "primaries": handling.primaries.rawValue, "curve": handling.curve ?? "none",
                                       "mode": handling.mode.rawValue, "gamut_mapped": handling.mapsGamut,
                                       "description": handling.description]
            if let signal = handling.signal { line["signal"] = signal.rawValue }
            if let peak = handling.peak { line["peak_nits"] = peak }
            if let source = handling.peakSource { line["peak_source"] = source.rawValue }
            if let dv = handling.dolbyVision { line["dolby_vision"] = dv.description }
            emit(line)
        }
        lastColour = handling
        pictureDrawn()
    }

    private var lastColour: ColourHandling?

    /// A picture reached the screen; only the first one of the process counts.
    func pictureDrawn() {
        guard firstDrawn == nil, !finished else { return }
        firstDrawn = Clock.now
        emit(["event": "first_frame_drawn"])
        if let exitAfter {
            exitTimer = Timer.once(after: exitAfter) { [weak self] in self?.quit() }
        }
    }

    /// The app is quitting: prints the summary once (before the player closes and forgets its counts).
    func finish(_ summary: Summary) {
        guard !finished else { return }
        finished = true
        exitTimer?.cancel()
        let statistics = summary.statistics
        emit([
            "event": "summary",
            "frames_drawn": summary.framesDrawn,
            "pictures_put_directly": summary.picturesPutDirectly,
            "frames_dropped": statistics?.framesDropped ?? 0,
            "frames_shown": statistics?.framesShown ?? 0,
            "frames_decoded": statistics?.framesDecoded ?? 0,
            "clicks_shown_ahead": statistics?.prefetchesServed ?? 0,
            "audio_output": statistics?.audioOutput ?? "none",
            "levelling": levelling,
            "seconds_since_first_frame": firstDrawn.map { ((Clock.now - $0) * 1000).rounded() / 1000 } ?? NSNull(),
        ])
    }

    /// One line per event, written straight to the file descriptor so it is never held in a buffer.
    private func emit(_ object: [String: Any]) {
        guard prints,
              var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        data.append(UInt8(ascii: "\n"))
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}
