import Foundation
import ReelTestSupport
import Testing

/// A picture drawn at a third of its size or less (a 4K film in a small window, or zoomed out)
/// on both drawing paths. A zone plate's rings get finer away from its top-left corner: where
/// they are coarse for the screen the picture must be FFmpeg's scaling of them, and where they
/// are finer than the screen's pixels they must average out to grey rather than come back as
/// the coarse false rings (moiré) of sampling a few texels in every three.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Pictures drawn small", .serialized)
struct MinifiedPictureTests {
    /// The zone plate's phase is 0.0025·r² (r in decoded pixels from the top-left corner), so
    /// its rings have 0.005·r radians a pixel there.
    static let phaseRate = 0.005

    /// Green values (the zone plate is grey) of a PNG, row by row.
    static func greens(_ png: String, width: Int, height: Int) throws -> [Double] {
        let raw = try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-i", png,
                                   "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).stdout
        guard raw.count == width * height * 3 else { return [] }
        return (0..<(width * height)).map { Double(raw[$0 * 3 + 1]) }
    }

    @Test("Zoomed out to 31 %, coarse rings are FFmpeg's and rings too fine to show average to grey",
          arguments: DrawingPath.withGLES)
    func zonePlate(_ path: DrawingPath) throws {
        let clip = try Fixtures.path(.zonePlate)
        try ControlsTests.desktops.use { desktop in
            PictureShapeWindowTests.forget(on: desktop)
            defer { PictureShapeWindowTests.forget(on: desktop) }
            let s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .zonePlate,
                                              settings: [ControlsTests.readableMessages, "hide-controls-while-paused=true"], environment: path.environment)
            let movie = try PictureShapeWindowTests.settled(s)
            try s.desktop.click(movie.x + 5, movie.y + movie.height / 2)   // focus the window
            // 2^-1.7 of the fitted size: 3.25 decoded pixels a screen pixel.
            try s.desktop.xdotool(["key", "--delay", "20"] + Array(repeating: "alt+minus", count: 17))
            try s.app.waitForElement("the zoom's billboard") { $0.role == "label" && $0.name == "Zoom 31 %" }
            var size = (width: 0, height: 0)
            let drawn = try s.app.saveSettledPicture("the picture zoomed out", name: "zone-plate", timeout: 40) { got, _ in
                size = got
                return got.width < 640 / 3 && got.height < 360 / 3
            }
            var conversion = PictureShapeWindowTests.conversion
            conversion.displaySize = "\(size.width):\(size.height)"
            conversion.kernel = "bicubic"
            let oracle = desktop.home.appendingPathComponent("zone-plate-oracle.png").path
            try PictureOracle.convert(clip, frame: 0, conversion, to: oracle)
            let (w, h) = size
            let reel = try Self.greens(drawn, width: w, height: h), ffmpeg = try Self.greens(oracle, width: w, height: h)
            try #require(reel.count == w * h && ffmpeg.count == w * h)
            // Radians a screen pixel at a screen point: the decoded rate times decoded pixels a screen pixel.
            let scale = 640.0 / Double(w)
            func rate(_ i: Int) -> Double {
                let x = (Double(i % w) + 0.5) * scale, y = (Double(i / w) + 0.5) * scale
                return Self.phaseRate * (x * x + y * y).squareRoot() * scale
            }
            // Coarse: under a quarter of the screen's limit (π), where scalers nearly agree (GL's
            // trilinear filter blurs more than FFmpeg's bicubic as the rings get finer).
            let coarse = (0..<(w * h)).filter { rate($0) < .pi / 4 }
            let error = coarse.map { (reel[$0] - ffmpeg[$0]) * (reel[$0] - ffmpeg[$0]) }.reduce(0, +) / Double(coarse.count)
            let psnr = 10 * log10(255 * 255 / max(error, 1e-9))
            // Too fine: from one and a half times the limit to where the decoded rings themselves
            // stay under theirs (0.005·r < π).
            let fine = (0..<(w * h)).filter { rate($0) > 1.5 * .pi && rate($0) / scale < 0.9 * .pi }
            let mean = fine.map { reel[$0] }.reduce(0, +) / Double(fine.count)
            let spread = (fine.map { (reel[$0] - mean) * (reel[$0] - mean) }.reduce(0, +) / Double(fine.count)).squareRoot()
            print("zone plate \(path) at \(w)x\(h): coarse rings \(String(format: "%.2f", psnr)) dB over \(coarse.count) pixels;"
                  + " fine rings mean \(String(format: "%.1f", mean)), deviation \(String(format: "%.1f", spread)) over \(fine.count) pixels")
            #expect(coarse.count > 100 && fine.count > 2000)
            #expect(psnr >= 30, "\(path): coarse rings \(psnr) dB against FFmpeg's")
            // The rings swing ±116 codes; averaged out they leave little.
            #expect(spread <= 20, "\(path): the rings too fine to show swing by \(spread) codes (moiré)")
            #expect(abs(mean - 130) <= 10, "\(path): the rings too fine to show average \(mean), not grey")
        }
    }
}
