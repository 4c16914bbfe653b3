import Foundation

/// Media whose format changes mid-stream, as TV recordings and joined files have it: MPEG-TS
/// segments encoded apart (each its own size, pixel format, frame rate or sound) and joined
/// byte by byte, which MPEG-TS allows. Each segment's timestamps go on from the previous one's
/// end, as a broadcast's clock does across an encoder change (or, with `restartsClock`, start
/// again, as files cut and joined end to end do). Each segment has its own picture (and tone),
/// so a frame or a stretch of sound tells which segment it came from.
/// Threading: any test thread; generation is serialised per fixture (see `Fixtures`).
extension Fixtures {
    /// One segment of a joined file. Threading: a value type.
    public struct Segment: Sendable {
        /// lavfi video source (testsrc2, smptebars, ...): each segment its own.
        public let picture: String
        public let size: String
        /// Frames per second.
        public let rate: Int
        public let pixelFormat: String
        /// Sine frequency and sound format, or nil for a segment without sound.
        public let tone: Int?
        public let sampleRate: Int
        public let layout: String
        public let seconds: Int
        /// More encoder options (colour tags).
        public let extra: [String]
        /// A filter over the source's picture (to tell segments of one source apart).
        public let filter: String?

        public init(picture: String, size: String, rate: Int = 25, pixelFormat: String = "yuv420p", tone: Int? = nil,
                    sampleRate: Int = 48000, layout: String = "stereo", seconds: Int = 2, extra: [String] = [], filter: String? = nil) {
            self.picture = picture
            self.size = size
            self.rate = rate
            self.pixelFormat = pixelFormat
            self.tone = tone
            self.sampleRate = sampleRate
            self.layout = layout
            self.seconds = seconds
            self.extra = extra
            self.filter = filter
        }

        /// The segment alone, as a TS whose clock starts `offset` seconds in (after the ones before).
        func spec(_ name: String, offset: Int) -> Spec {
            var args = ["-f", "lavfi", "-i", "\(picture)=size=\(size):rate=\(rate):duration=\(seconds)"]
            if let tone {
                args += ["-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=\(sampleRate):duration=\(seconds),"
                         + "aformat=channel_layouts=\(layout)"]
            }
            args += ["-map", "0:v"] + (tone != nil ? ["-map", "1:a"] : []) + (filter.map { ["-vf", $0] } ?? [])
            // A key frame each second and at the segment's start: every segment opens on one,
            // as an encoder change in a broadcast does.
            args += ["-c:v", "libx264", "-preset", "veryfast", "-g", "\(rate)", "-keyint_min", "\(rate)", "-sc_threshold", "0",
                     "-bf", "2", "-pix_fmt", pixelFormat] + extra
            if tone != nil { args += ["-c:a", "aac", "-b:a", layout == "stereo" ? "96k" : "256k", "-shortest"] }
            args += ["-output_ts_offset", String(offset), "-f", "mpegts"]
            return Spec(name: name, ext: "ts", arguments: args)
        }
    }

    /// A joined file: the segments' TS files one after the other; cached under a name that holds
    /// every segment's recipe, so changing one makes a new file.
    public static func joined(_ name: String, _ segments: [Segment], restartsClock: Bool = false) throws -> String {
        let specs = segmentSpecs(name, segments, restartsClock: restartsClock)
        let paths = try specs.map { try path($0) }
        let recipe = specs.map { $0.arguments.joined(separator: " ") }.joined(separator: "|")
        // `derived` itself does not serialise: two tests asking at once must not both write it.
        joining.lock(); defer { joining.unlock() }
        return try derived("\(name)-\(fnv(recipe))", ext: "ts", from: specs[0]) { _, destination in
            var joined = Data()
            for segment in paths { joined.append(try Data(contentsOf: URL(fileURLWithPath: segment))) }
            try joined.write(to: URL(fileURLWithPath: destination))
        }
    }

    /// The segments' own files (each decodes to the same frames as its stretch of the joined file).
    public static func segmentPaths(_ name: String, _ segments: [Segment], restartsClock: Bool = false) throws -> [String] {
        try segmentSpecs(name, segments, restartsClock: restartsClock).map { try path($0) }
    }

    /// With `restartsClock`, every segment's clock starts where the first one's does, as
    /// files cut and joined end to end have it.
    static func segmentSpecs(_ name: String, _ segments: [Segment], restartsClock: Bool = false) -> [Spec] {
        // Every segment's clock starts a second late, the first one's too: then no timestamp is
        // negative (B-frames, AAC priming) and the muxer shifts none of them, so the segments'
        // timestamps follow on exactly.
        var offset = 1
        return segments.enumerated().map { i, segment in
            defer { if !restartsClock { offset += segment.seconds } }
            return segment.spec("\(name)-part\(i + 1)", offset: offset)
        }
    }

    private static let joining = NSLock()

    private static func fnv(_ text: String) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return String(hash, radix: 16)
    }
}

/// The format-change fixtures. Threading: constants.
extension Fixtures.Spec {
    /// A joined TS and its segments. Threading: a value type.
    public struct Joined: Sendable, CustomStringConvertible {
        public let name: String
        public let segments: [Fixtures.Segment]
        /// Each segment starts its clock again (files joined end to end), instead of going on.
        public var restartsClock = false
        public var path: String { get throws { try Fixtures.joined(name, segments, restartsClock: restartsClock) } }
        public var segmentPaths: [String] {
            get throws { try Fixtures.segmentPaths(name, segments, restartsClock: restartsClock) }
        }
        public var description: String { name }
    }

    /// 720×576 (SD, 5:4 pixels) → 1280×720 (16:9) → 720×576 again, H.264 4:2:0 with AAC
    /// stereo: the size changes twice, and with it the aspect and the matrix (tagged, as
    /// broadcasts are: BT.601 for SD, BT.709 for HD).
    public static let sizeChanges = Joined(name: "size-changes", segments: [
        .init(picture: "testsrc2", size: "720x576", tone: 440, extra: bt601),
        .init(picture: "smptebars", size: "1280x720", tone: 440, extra: bt709),
        .init(picture: "testsrc", size: "720x576", tone: 440, extra: bt601),
    ])

    /// 320×240 H.264 yuv420p (High) → yuv422p (High 4:2:2) → yuv420p10le (High 10): the pixel
    /// format changes twice at one size.
    public static let pixelFormatChanges = Joined(name: "pixel-format-changes", segments: [
        .init(picture: "testsrc2", size: "320x240", pixelFormat: "yuv420p"),
        .init(picture: "smptebars", size: "320x240", pixelFormat: "yuv422p"),
        .init(picture: "rgbtestsrc", size: "320x240", pixelFormat: "yuv420p10le"),
    ])

    /// For the window: 640×480 (4:3) yuv420p → 640×360 (16:9), the size alone changing →
    /// yuv422p10le, the format alone changing → 640×480 yuv420p again (the first picture in
    /// negative: moving, unlike the bars before it); tagged BT.709 limited range, without
    /// sound. The window opens at 640×480, so every picture is drawn 1:1, the 16:9 ones
    /// letterboxed.
    public static let windowFormatChanges = Joined(name: "window-format-changes", segments: [
        .init(picture: "testsrc2", size: "640x480", pixelFormat: "yuv420p", extra: bt709),
        .init(picture: "testsrc", size: "640x360", pixelFormat: "yuv420p", extra: bt709),
        .init(picture: "smptebars", size: "640x360", pixelFormat: "yuv422p10le", extra: bt709),
        .init(picture: "testsrc2", size: "640x480", pixelFormat: "yuv420p", extra: bt709, filter: "negate"),
    ])

    /// 320×240 at 25 fps → 640×360 at 50 fps → 320×240 at 25 fps, as a broadcast switches
    /// between interlaced SD and 720p50: the frame rate changes with the size.
    public static let frameRateChanges = Joined(name: "frame-rate-changes", segments: [
        .init(picture: "testsrc2", size: "320x240", rate: 25),
        .init(picture: "smptebars", size: "640x360", rate: 50),
        .init(picture: "testsrc", size: "320x240", rate: 25),
    ])

    /// Three files, each starting its clock at the same time, joined end to end: 320×240 →
    /// 640×360 → 320×240 H.264 4:2:0, without sound; the timestamps go back two seconds at
    /// each join.
    public static let clockResets = Joined(name: "clock-resets", segments: [
        .init(picture: "testsrc2", size: "320x240"),
        .init(picture: "smptebars", size: "640x360"),
        .init(picture: "testsrc", size: "320x240"),
    ], restartsClock: true)

    /// The same with sound (AAC stereo, one tone): sound and picture jump together.
    public static let clockResetsWithSound = Joined(name: "clock-resets-sound", segments: [
        .init(picture: "testsrc2", size: "320x240", tone: 440),
        .init(picture: "smptebars", size: "640x360", tone: 660),
        .init(picture: "testsrc", size: "320x240", tone: 880),
    ], restartsClock: true)

    static let bt601 = ["-colorspace", "smpte170m", "-color_primaries", "bt470bg", "-color_trc", "smpte170m",
                        "-color_range", "tv"]
    static let bt709 = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]

    /// Small video, sound that changes: AAC stereo 48 kHz at 440 Hz → AAC 5.1 48 kHz at 660 Hz →
    /// AAC stereo 44.1 kHz at 880 Hz, two seconds each.
    public static let audioFormatChanges = Joined(name: "audio-format-changes", segments: [
        .init(picture: "testsrc2", size: "320x240", tone: 440, sampleRate: 48000, layout: "stereo"),
        .init(picture: "smptebars", size: "320x240", tone: 660, sampleRate: 48000, layout: "5.1"),
        .init(picture: "rgbtestsrc", size: "320x240", tone: 880, sampleRate: 44100, layout: "stereo"),
    ])
}
