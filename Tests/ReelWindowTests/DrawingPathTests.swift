import Foundation
import ReelTestSupport
import Testing

/// Both ways of putting pictures on screen, in the real window: OpenGL shaders, and libswscale
/// and zimg into cairo (chosen where GL is software, as Mesa's llvmpipe is here). Which path
/// draws is read from `--report` and the app's log; what it drew from the picture it saves (subtitles read back
/// with OCR) at 1:1, after a size change and in fullscreen, while playing. The pictures' exact
/// colours on both paths are the movie renderer's and rotation suites' (FFmpeg as the oracle).
/// Threading: serialised (one Xvfb and GL rasteriser at a time); the tests share one desktop.
@Suite("Both drawing paths", .serialized)
struct DrawingPathTests {
    static let desktops = SharedDesktop(width: 1600, height: 1200)

    /// A plain dark picture long enough to play through the size changes, 960×540 so that it
    /// opens 1:1 on this screen, and the cue over all of it.
    static let canvas = Fixtures.Spec(name: "drawing-canvas", ext: "mp4", arguments: [
        "-f", "lavfi", "-i", "color=c=0x303030:s=960x540:r=25:d=30",
        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
    ])

    /// The JSON lines `reel --report` printed with `event`, in order.
    static func reported(_ text: String, _ event: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{"), let data = line.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  object["event"] as? String == event else { return nil }
            return object
        }
    }

    @Test("Automatic drawing follows what draws GL: llvmpipe and no GL at all draw in software; the variable forces GL")
    func chosenByDetection() throws {
        let clip = try Fixtures.path(.h264MP4)
        try Self.desktops.use { desktop in
            let runs: [[String: String]] = [[:], ["GDK_DEBUG": "gl-disable"], ["REEL_VIDEO_OUTPUT": "gl"]]
            // The desktop's environment, read here: the launches run at once on threads of their own.
            let environment = desktop.environment
            let results = AtOnce.map(runs) { extra in
                try Command.run([ReelApp.binary, "--report", "--exit-after", "0", clip],
                                environment: environment.merging(extra) { $1 }).output
            }
            let said = try results.map { result in try #require(Self.reported(try result.get(), "video_output").first) }
            #expect(said[0]["path"] as? String == "software", "\(said[0])")
            #expect((said[0]["gl_renderer"] as? String)?.contains("llvmpipe") == true, "\(said[0])")
            #expect(said[0]["accelerated"] as? Bool == false)
            #expect(said[1]["path"] as? String == "software", "\(said[1])")
            #expect(said[1]["gl_renderer"] as? String == "none", "\(said[1])")
            #expect(said[2]["path"] as? String == "gl", "\(said[2])")
            #expect((said[2]["reason"] as? String)?.contains("REEL_VIDEO_OUTPUT") == true, "\(said[2])")
            // Each drew its first picture (the report's summary follows it).
            for result in results {
                #expect(Self.reported(try result.get(), "first_frame_drawn").count == 1)
            }
        }
    }

    @Test("Each path draws the picture 1:1 with its subtitles, follows a size change and fullscreen while playing",
          arguments: DrawingPath.allCases)
    func drawsOnEitherPath(_ path: DrawingPath) throws {
        try Self.desktops.use { desktop in
            let folder = desktop.home.appendingPathComponent("films-\(path.rawValue)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let clip = folder + "/film.mp4"
            try FileManager.default.copyItem(atPath: try Fixtures.path(Self.canvas), toPath: clip)
            try "1\n00:00:00,000 --> 00:00:30,000\nHello World\n".write(toFile: folder + "/film.srt", atomically: true, encoding: .utf8)
            // (Without --report, which keeps an app off the bus its actions are reached by.)
            let app = try ReelApp(on: desktop, arguments: ["--paused", "--start", "1", clip], environment: path.environment.merging(["G_MESSAGES_DEBUG": "Reel"]) { $1 })

            let whole = try app.savePicture(width: 960, height: 540, name: "\(path.rawValue)-1to1")
            #expect(try SubtitleWindowTests.ocr(whole).contains("hello world"), "no subtitles in \(whole)")

            // Readable before it plays: GTK joins the accessibility bus from an idle callback,
            // which a main loop drawing every picture on a software GL may not reach for long
            // (the controls that a pause shows take their fade first).
            try app.element(named: "Play")
            try app.activate("toggle-pause")
            try app.element(named: "Pause")
            // A smaller window: the picture is drawn again at the size that fits, 16:9 kept.
            try desktop.xdotool(["windowsize", app.window, "700", "520"])
            let smaller = try app.saveSettledPicture("a picture fitted to the smaller window", name: "\(path.rawValue)-smaller",
                                                     timeout: 30) { size, _ in
                size.width < 960 && size.width > 0 && abs(size.width * 540 - size.height * 960) <= 960
            }
            #expect(try SubtitleWindowTests.ocr(smaller).contains("hello world"), "no subtitles in \(smaller)")

            // Fullscreen on a 1600×1200 screen: 1600×900, letterboxed.
            try app.activate("fullscreen")
            let full = try app.saveSettledPicture("the picture across the screen", name: "\(path.rawValue)-fullscreen",
                                                  timeout: 30) { size, _ in size.width == 1600 && size.height == 900 }
            #expect(try SubtitleWindowTests.ocr(full).contains("hello world"), "no subtitles in \(full)")

            // Still playing after the changes (the button offers Pause), and on the path asked for.
            try app.element(named: "Pause")
            app.stop()
            #expect(try String(contentsOfFile: app.log, encoding: .utf8).contains("drawing: \(path.rawValue)"))
        }
    }
}
