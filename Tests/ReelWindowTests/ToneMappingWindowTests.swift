import Foundation
import ReelTestSupport
import Testing

/// HDR and BT.2020 pictures as the window shows them on either drawing path, against
/// libplacebo (FFmpeg's `libplacebo` filter, BT.2390, on lavapipe) drawing the same frame for
/// an SDR BT.709 display: PQ with and without mastering metadata, HLG, BT.2020 SDR and 12-bit
/// PQ (which GL takes only converted) must score ≥ 30 dB (the issue's bar; drawn as SDR they score 10–26 dB), and a PQ grey ramp must
/// rise step by step without clipping below its top step.
/// Threading: serialised; each path's cases share one desktop and one `reel`.
@Suite("Tone mapping in the window", .serialized)
struct ToneMappingWindowTests {
    /// 25 fps: 0.1 s falls in frame 2's interval [0.08, 0.12), inside the 0.2 s ramp too.
    static let start = "0.1"
    static let frameIndex = 2
    /// 1280×720 on the 1280×800 desktop: the window takes 70 % of it, 896×504.
    static let width = 896, height = 504
    static let threshold = 30.0

    /// Per drawing path, one desktop and one `reel`, paused at `start`; the window takes each
    /// clip's size after the blank clip's.
    static let shared = Dictionary(uniqueKeysWithValues: DrawingPath.withGLES.map { path in
        (path, SharedReel(launchOptions: ["--paused", "--start", start], blank: .glBlank, resizes: true,
                          environment: path.environment, settings: ["hide-controls-while-paused=true"]))
    })

    /// One colour fixture. Threading: a value type.
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let spec: Fixtures.Spec
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "PQ with mastering metadata", spec: .pqWithMetadata),
        Case(name: "PQ bare", spec: .pqBare),
        Case(name: "HLG", spec: .hlg),
        Case(name: "BT.2020 SDR", spec: .bt2020SDR),
        // No shader format: the GL path converts it on the CPU, through the CPU path's steps.
        Case(name: "PQ 12-bit", spec: .pqTwelveBit),
    ]

    /// A folder for one case's pictures, kept with REEL_TEST_KEEP_DESKTOP=1 for a look.
    static func folder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("reel-tonemap-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func clean(_ folder: URL) {
        if ProcessInfo.processInfo.environment["REEL_TEST_KEEP_DESKTOP"] == nil {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test("The window's picture is libplacebo's, on either path and on GL ES", arguments: DrawingPath.withGLES, cases)
    func matchesLibplacebo(_ path: DrawingPath, _ testCase: Case) throws {
        let clip = try Fixtures.path(testCase.spec)
        let name = MovieRendererTests.fileName(testCase.name)
        let folder = try Self.folder(name)
        defer { Self.clean(folder) }
        let oracle = folder.appendingPathComponent("\(name)-placebo.png").path
        let drawn = folder.appendingPathComponent("\(name)-\(path.rawValue).png").path
        let made = AtOnce.map([MovieRendererTests.Picture.oracle, .drawn]) { picture in
            switch picture {
            case .oracle:
                // libplacebo draws the frame at its own size; the window shows it at 70 %.
                let reference = try PlaceboOracle.reference(of: clip, frame: Self.frameIndex)
                try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", reference,
                                 "-vf", "scale=\(Self.width):\(Self.height):flags=bilinear,format=rgb24", oracle])
            case .drawn:
                try Self.shared[path]!.picture(of: clip, width: Self.width, height: Self.height, name: name) { _, png in
                    try FileManager.default.copyItem(atPath: png, toPath: drawn)
                }
            }
        }
        for outcome in made { try outcome.get() }
        let psnr = try PictureOracle.psnr(drawn, oracle)
        print("PSNR \(path) \(testCase.name) vs libplacebo frame \(Self.frameIndex): \(String(format: "%.2f", psnr)) dB  [\(drawn) | \(oracle)]")
        #expect(psnr >= Self.threshold, "\(path) \(testCase.name): \(psnr) dB; drawn \(drawn), libplacebo \(oracle)")
    }

    /// Sixteen PQ steps from 0 to 1,000 cd/m² without metadata (so the peak is 10,000): each
    /// step is brighter than the one before, none below the top reaches white, and each is
    /// within 3 codes of libplacebo's (drawn as SDR, the steps rise evenly to 192 instead).
    @Test("A PQ grey ramp rises step by step as libplacebo's and clips nowhere below its top",
          arguments: DrawingPath.allCases)
    func greyRamp(_ path: DrawingPath) throws {
        let clip = try Fixtures.path(.pqRamp)
        let folder = try Self.folder("pq-ramp")
        defer { Self.clean(folder) }
        let oracle = folder.appendingPathComponent("pq-ramp-placebo.png").path
        let reference = try PlaceboOracle.reference(of: clip, frame: Self.frameIndex)
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", reference,
                         "-vf", "scale=\(Self.width):\(Self.height):flags=bilinear,format=rgb24", oracle])
        // 80 source pixels a step, 56 shown: the middle 20 of each, away from its edges.
        func steps(_ png: String) throws -> [Double] {
            let step = Self.width / 16
            return try (0..<16).map { i in
                try ScreenImage.average(png, x: i * step + (step - 20) / 2, y: Self.height / 2 - 50, width: 20, height: 100).g
            }
        }
        let drawn = try Self.shared[path]!.picture(of: clip, width: Self.width, height: Self.height, name: "pq-ramp") { _, png in
            try steps(png)
        }
        let expected = try steps(oracle)
        let text = { (values: [Double]) in values.map { String(format: "%.0f", $0) }.joined(separator: " ") }
        print("PQ ramp \(path): \(text(drawn)); libplacebo: \(text(expected))")
        for i in 1..<drawn.count {
            #expect(drawn[i] > drawn[i - 1], "\(path): step \(i) is \(drawn[i]), not above step \(i - 1)'s \(drawn[i - 1]): \(drawn)")
        }
        for i in 0..<(drawn.count - 1) {
            #expect(drawn[i] < 254.5, "\(path): step \(i) clips at \(drawn[i]): \(drawn)")
        }
        for i in 0..<drawn.count {
            #expect(abs(drawn[i] - expected[i]) <= 3, "\(path): step \(i) is \(drawn[i]), libplacebo's \(expected[i])")
        }
    }
}

extension Fixtures.Spec {
    /// PQ without metadata in 12-bit 4:2:0 (HEVC Main 12), which GL takes only converted.
    static let pqTwelveBit = Self(name: "hdr10-pq-12bit", ext: "mkv", arguments: [
        "-f", "lavfi", "-i", "testsrc2=s=1280x720:r=25:d=1,format=gbrp",
        "-vf", "zscale=tin=bt709:pin=bt709:min=gbr:rin=full:t=linear:p=bt709:m=gbr:r=full:npl=203,format=gbrpf32le,"
            + "zscale=p=bt2020:t=smpte2084:m=bt2020nc:r=tv:npl=203,format=yuv420p12le",
        "-c:v", "libx265", "-preset", "ultrafast", "-crf", "12", "-x265-params",
        "log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:range=limited",
        "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc", "-color_range", "tv",
    ])
}
