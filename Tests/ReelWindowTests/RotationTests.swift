import Foundation
import ReelTestSupport
import Testing

/// Videos that carry a display rotation (a phone held upright records landscape pixels and a
/// matrix saying "turn a quarter") are shown turned, as FFmpeg's own tools show them: the
/// renderer's picture against FFmpeg's autorotated RGB conversion of the same frame.
/// Threading: serialised (one Xvfb and GL rasteriser at a time); the cases share one desktop and app.
@Suite("Rotated video", .serialized)
struct RotationTests {
    /// One rotation and the picture size it is shown at. Threading: a value type.
    struct Case: Sendable, CustomStringConvertible {
        let degrees: Int
        let size: String
        let shownWidth: Int, shownHeight: Int
        /// Where H.264's left-sited chroma lands once FFmpeg has turned the planes themselves
        /// (left column to the bottom row for a quarter turn clockwise): the renderer samples
        /// the unturned planes at their true siting, so the oracle's conversion is told where
        /// the turned samples sit.
        let turnedChroma: PictureOracle.Conversion.ChromaPosition
        var description: String { "\(size) turned \(degrees)°" }
    }

    // Quarter turns at 1280×720 so that the upright 720×1280 picture opens 1:1 on a tall
    // screen (a smaller one would be enlarged); a half turn keeps its shape.
    static let cases = [
        Case(degrees: 90, size: "1280x720", shownWidth: 720, shownHeight: 1280,
             turnedChroma: .init(horizontal: 128, vertical: 256)),
        Case(degrees: 180, size: "640x360", shownWidth: 640, shownHeight: 360,
             turnedChroma: .init(horizontal: 256, vertical: 128)),
        Case(degrees: 270, size: "1280x720", shownWidth: 720, shownHeight: 1280,
             turnedChroma: .init(horizontal: 128, vertical: 0)),
    ]

    /// Per drawing path, one tall desktop and one `reel` for the three cases, each opening its
    /// file in the running instance (paused at `start`); the window takes each file's turned shape.
    static let shared = Dictionary(uniqueKeysWithValues: DrawingPath.allCases.map { path in
        (path, SharedReel(desktopWidth: 1600, desktopHeight: 2000, launchOptions: ["--paused", "--start", MovieRendererTests.start],
                          blank: .glBlank, resizes: true, environment: path.environment))
    })

    static func clip(_ testCase: Case) throws -> String {
        let base = Fixtures.Spec.video("rotation-base-\(testCase.size)", ext: "mp4", size: testCase.size, rate: "25", seconds: 1,
                                       codec: ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-bf", "0",
                                               "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_range", "tv"])
        return try Fixtures.derived("rotated-\(testCase.degrees)-\(testCase.size)", ext: "mp4", from: base) { source, destination in
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", source,
                             "-c", "copy", "-metadata:s:v:0", "rotate=\(testCase.degrees)", "-f", "mp4", destination])
        }
    }

    @Test("A rotated video is drawn turned on either path, as FFmpeg turns it", arguments: DrawingPath.allCases, cases)
    func drawnTurned(_ path: DrawingPath, _ testCase: Case) throws {
        let clip = try Self.clip(testCase)
        let name = "rotated-\(testCase.degrees)"
        try Self.shared[path]!.picture(of: clip, width: testCase.shownWidth, height: testCase.shownHeight, name: name) { desktop, drawn in
            try Self.check(testCase, clip: clip, drawn: drawn, name: name, on: desktop)
        }
    }

    static func check(_ testCase: Case, clip: String, drawn: String, name: String, on desktop: Desktop) throws {
        let conversion = PictureOracle.Conversion(matrix: "bt709", range: "tv", chromaPosition: testCase.turnedChroma)
        // FFmpeg's command line turns the picture itself (autorotate), before the conversion.
        let turned = desktop.home.appendingPathComponent("\(name)-ffmpeg.png").path
        try PictureOracle.convert(clip, frame: MovieRendererTests.frameIndex, conversion, to: turned)
        let psnr = try PictureOracle.psnr(drawn, turned)
        print("PSNR \(testCase) vs FFmpeg autorotated: \(String(format: "%.2f", psnr)) dB [\(drawn) | \(turned)]")
        #expect(psnr >= MovieRendererTests.threshold, "\(testCase): \(psnr) dB; drawn \(drawn), FFmpeg \(turned)")
        // And the check can fail: the same picture turned half a turn more (the opposite
        // quarter turn, or for a half turn none at all) does not pass.
        let wrong = desktop.home.appendingPathComponent("\(name)-wrong.png").path
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", turned,
                         "-vf", "transpose=clock,transpose=clock", wrong])
        let wrongScore = try PictureOracle.psnr(drawn, wrong)
        #expect(wrongScore < MovieRendererTests.threshold, "a picture turned the wrong way scores \(wrongScore) dB")
    }
}
