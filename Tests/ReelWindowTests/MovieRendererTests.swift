import Foundation
import ReelTestSupport
import Testing

/// Both drawing paths against an outside oracle: the real `reel` shows a known frame of a fixture,
/// saves exactly what it drew (GL's shaders, or zimg and libswscale into cairo), and FFmpeg
/// converts the same decoded frame to RGB itself; the two must agree to ≥ 35 dB PSNR, for
/// several pixel formats, matrices and ranges, on each path.
/// Threading: serialised (one Xvfb and GL rasteriser at a time); each path's cases share one desktop and app.
@Suite("Movie renderer", .serialized)
struct MovieRendererTests {
    /// 25 fps: 0.5 s falls in the middle of frame 12's interval [0.48, 0.52), the frame an
    /// exact seek to 0.5 shows (testsrc2 prints "12" in its corner for a look at the PNGs).
    static let start = "0.5"
    static let frameIndex = 12
    static let width = 640, height = 360
    static let threshold = 35.0

    /// One fixture and how FFmpeg is to convert its frames. Threading: a value type.
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let spec: Fixtures.Spec
        let oracle: PictureOracle.Conversion
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "yuv420p BT.601 limited (H.264)", spec: .glH264("yuv420p", matrix: "smpte170m", range: "tv"),
             oracle: .init(matrix: "bt601", range: "tv", chromaPosition: .left)),
        Case(name: "yuv420p BT.709 limited (H.264)", spec: .glH264("yuv420p", matrix: "bt709", range: "tv"),
             oracle: .init(matrix: "bt709", range: "tv", chromaPosition: .left)),
        Case(name: "yuvj420p BT.601 full (H.264)", spec: .glH264("yuvj420p", matrix: "smpte170m", range: "pc"),
             oracle: .init(matrix: "bt601", range: "pc", chromaPosition: .left)),
        Case(name: "nv12 BT.709 limited, centred chroma (raw)",
             spec: .glRaw("nv12", extra: ["-colorspace", "bt709", "-color_range", "tv", "-chroma_sample_location", "center"]),
             oracle: .init(matrix: "bt709", range: "tv", chromaPosition: .center)),
        Case(name: "yuv420p10le BT.2020 limited (H.264)", spec: .glH264("yuv420p10le", matrix: "bt2020nc", range: "tv"),
             oracle: .init(matrix: "bt2020", range: "tv", chromaPosition: .left)),
        Case(name: "yuv422p BT.709 limited (H.264)", spec: .glH264("yuv422p", matrix: "bt709", range: "tv"),
             oracle: .init(matrix: "bt709", range: "tv", chromaPosition: .init(horizontal: 0, vertical: 0))),
        Case(name: "yuv422p10le BT.709 full (H.264)", spec: .glH264("yuv422p10le", matrix: "bt709", range: "pc"),
             oracle: .init(matrix: "bt709", range: "pc", chromaPosition: .init(horizontal: 0, vertical: 0))),
        // 480×360 at 4:3 pixels: shown 640×360, stretched by GL's bilinear filter and FFmpeg's.
        Case(name: "yuv420p BT.709 limited, anamorphic 480x360 SAR 4:3 (H.264)",
             spec: .glH264("yuv420p", matrix: "bt709", range: "tv", size: "480x360", extra: ["-vf", "setsar=4/3"]),
             oracle: .init(matrix: "bt709", range: "tv", chromaPosition: .left, displaySize: "640:360")),
        Case(name: "yuv444p BT.601 limited (H.264)", spec: .glH264("yuv444p", matrix: "smpte170m", range: "tv"),
             oracle: .init(matrix: "bt601", range: "tv")),
        // Not a shader format: the engine's libswscale call converts it (bicubic), siting the
        // unspecified chroma as limited-range video does: left, and centred over its 4 rows.
        Case(name: "yuv410p BT.709 limited via libswscale (raw)",
             spec: .glRaw("yuv410p", extra: ["-colorspace", "bt709", "-color_range", "tv"]),
             oracle: .init(matrix: "bt709", range: "tv", chromaPosition: .init(horizontal: 0, vertical: 384), kernel: "bicubic")),
        Case(name: "bgra packed (raw)", spec: .glRaw("bgra", ext: "nut"),
             oracle: .init(matrix: "bt709", range: "tv")),
    ]

    /// Per drawing path, one desktop and one `reel` for all the cases: each opens its file in the
    /// running instance, which shows every file paused at `start` as it was launched to.
    static let shared = Dictionary(uniqueKeysWithValues: DrawingPath.withGLES.map { path in
        // The picture alone on screen: paused, the header bar and the controls would stay over it.
        (path, SharedReel(launchOptions: ["--paused", "--start", start], blank: .glBlank, environment: path.environment,
                          settings: ["hide-controls-while-paused=true"]))
    })

    static func fileName(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    @Test("A known frame drawn on either path (and on GL ES) matches FFmpeg's own RGB conversion",
          arguments: DrawingPath.withGLES, cases)
    func matchesFFmpeg(_ path: DrawingPath, _ testCase: Case) throws {
        let clip = try Fixtures.path(testCase.spec)
        let name = Self.fileName(testCase.name)
        // FFmpeg converts the frame while the window opens the file and its picture settles:
        // the one computes, the other mostly waits for the app. Both pictures land in a folder
        // of this case's own (the desktop's goes when its last case is done).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-renderer-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            // REEL_TEST_KEEP_DESKTOP=1 keeps them for a look after a failure, as it keeps desktops.
            if ProcessInfo.processInfo.environment["REEL_TEST_KEEP_DESKTOP"] == nil {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        let oracle = folder.appendingPathComponent("\(name)-ffmpeg.png").path
        let drawn = folder.appendingPathComponent("\(name)-drawn.png").path
        let conversion = testCase.oracle
        let made = AtOnce.map([Picture.oracle, .drawn]) { picture in
            switch picture {
            case .oracle:
                try PictureOracle.convert(clip, frame: Self.frameIndex, conversion, to: oracle)
            case .drawn:
                try Self.shared[path]!.picture(of: clip, width: Self.width, height: Self.height, name: name) { _, png in
                    try FileManager.default.copyItem(atPath: png, toPath: drawn)
                }
            }
        }
        for outcome in made { try outcome.get() }
        let psnr = try PictureOracle.psnr(drawn, oracle)
        print("PSNR \(path) \(testCase.name) vs FFmpeg (\(testCase.oracle)): \(String(format: "%.2f", psnr)) dB  [\(drawn) | \(oracle)]")
        #expect(psnr >= Self.threshold, "\(path) \(testCase.name): \(psnr) dB; drawn \(drawn), FFmpeg \(oracle)")
    }

    /// What the surface says it drew is what is on the screen: the picture area cut from a
    /// screenshot of the X display (the pixels GTK put there, through cairo or GL) against
    /// FFmpeg's conversion, on each path.
    @Test("The screen shows the known frame as FFmpeg converts it, on either path", arguments: DrawingPath.allCases)
    func screenMatchesFFmpeg(_ path: DrawingPath) throws {
        let testCase = Self.cases[1]  // yuv420p BT.709 limited, H.264 (left-sited chroma)
        let clip = try Fixtures.path(testCase.spec)
        try Self.shared[path]!.picture(of: clip, width: Self.width, height: Self.height, name: "screen") { desktop, drawn, app in
            let video = try app.element(named: "Video")
            let oracle = desktop.home.appendingPathComponent("screen-ffmpeg.png").path
            try PictureOracle.convert(clip, frame: Self.frameIndex, testCase.oracle, to: oracle)
            // The picture is centred in the video area (the window is sized to it).
            let x = video.x + (video.width - Self.width) / 2, y = video.y + (video.height - Self.height) / 2
            let screen = try desktop.screenshot("screen-\(path.rawValue)")
            let cut = desktop.home.appendingPathComponent("screen-\(path.rawValue)-picture.png").path
            try Command.run(["convert", screen, "-crop", "\(Self.width)x\(Self.height)+\(x)+\(y)", "+repage", cut])
            let psnr = try PictureOracle.psnr(cut, oracle)
            print("PSNR \(path) screen vs FFmpeg: \(String(format: "%.2f", psnr)) dB  [\(cut) | \(oracle) | saved \(drawn)]")
            #expect(psnr >= Self.threshold, "\(path): the screen shows \(psnr) dB of FFmpeg's picture; \(cut), \(oracle)")
        }
    }

    /// The two pictures a case compares. Threading: a value type.
    enum Picture: Sendable { case oracle, drawn }

    /// The check must be able to fail: the same drawn picture against FFmpeg told a wrong
    /// matrix, a wrong range, or FFmpeg's own default (centred) chroma siting.
    @Test("The comparison discriminates: a wrong matrix, range or chroma siting drops below 35 dB")
    func discriminates() throws {
        let testCase = Self.cases[1]  // yuv420p BT.709 limited, H.264 (left-sited chroma)
        let clip = try Fixtures.path(testCase.spec)
        try Self.shared[.software]!.picture(of: clip, width: Self.width, height: Self.height, name: "discriminates") { desktop, drawn in
            try Self.discriminate(testCase, clip: clip, drawn: drawn, on: desktop)
        }
    }

    static func discriminate(_ testCase: Case, clip: String, drawn: String, on desktop: Desktop) throws {
        func oracle(_ change: (inout PictureOracle.Conversion) -> Void) -> PictureOracle.Conversion {
            var conversion = testCase.oracle
            change(&conversion)
            return conversion
        }
        let variants: [(label: String, conversion: PictureOracle.Conversion, shouldPass: Bool)] = [
            ("right", testCase.oracle, true),
            ("wrong matrix", oracle { $0.matrix = "bt601" }, false),
            ("wrong range", oracle { $0.range = "pc" }, false),
            ("centred chroma", oracle { $0.chromaPosition = nil }, false),
        ]
        // Converted and compared two at a time; judged here afterwards, in order.
        let folder = desktop.home
        let measured = AtOnce.mapInPairs(variants.map { ($0.label, $0.conversion) }) { label, conversion in
            let oracle = folder.appendingPathComponent("discriminates-\(fileName(label)).png").path
            try PictureOracle.convert(clip, frame: frameIndex, conversion, to: oracle)
            return try PictureOracle.psnr(drawn, oracle)
        }
        for ((label, conversion, shouldPass), outcome) in zip(variants, measured) {
            let psnr = try outcome.get()
            print("PSNR \(testCase.name) vs FFmpeg with \(label) (\(conversion)): \(String(format: "%.2f", psnr)) dB")
            if shouldPass {
                #expect(psnr >= threshold, "\(label): \(psnr) dB")
            } else {
                #expect(psnr < threshold, "\(label) should not pass, yet scored \(psnr) dB")
            }
        }
    }
}

/// The renderer's fixtures: testsrc2 (sharp, saturated colour edges) at 640×360, 25 fps.
extension Fixtures.Spec {
    /// One flat colour at the cases' size, shown between two cases' files.
    static let glBlank = Self(name: "gl-blank-640x360", ext: "mkv", arguments: [
        "-f", "lavfi", "-i", "color=c=0x336699:size=640x360:rate=25:duration=1",
        "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"])

    /// H.264 without B-frames (frame n is the n-th in presentation order from pts 0), tagged
    /// with its matrix and range.
    static func glH264(_ pixelFormat: String, matrix: String, range: String, size: String = "640x360",
                       extra: [String] = []) -> Self {
        .video("gl-h264-\(pixelFormat)-\(matrix)-\(range)-\(size)", ext: "mkv", size: size, rate: "25", seconds: 1,
               codec: ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-bf", "0", "-pix_fmt", pixelFormat,
                       "-colorspace", matrix, "-color_range", range], extra: extra)
    }

    /// Uncompressed video in a pixel format no common decoder outputs (Matroska keeps the tags).
    static func glRaw(_ pixelFormat: String, ext: String = "mkv", extra: [String] = []) -> Self {
        .video("gl-raw-\(pixelFormat)", ext: ext, size: "640x360", rate: "25", seconds: 0.6,
               codec: ["-c:v", "rawvideo", "-pix_fmt", pixelFormat], extra: extra)
    }
}
