import Foundation
import ReelTestSupport
import Testing

/// Subtitles in the window: a file beside the video shows over the picture as drawn by the GL
/// surface, a file added later replaces it, and switching off removes it. Read back with OCR
/// (tesseract) from the renderer's own picture.
/// Threading: serialised (one Xvfb and GL rasteriser at a time); a test owns the standard shared desktop for its turn.
@Suite("Subtitles in the window", .serialized)
struct SubtitleWindowTests {
    static func ocr(_ png: String) throws -> String {
        try Command.run(["tesseract", png, "-", "--psm", "6"], check: false).output.lowercased()
            .split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    @Test("The file beside the video is drawn over the picture; Z moves it earlier; an added file replaces it and is remembered for the file; Off removes it")
    func drawnOverPicture() throws {
        let desktop = try Desktop(width: 1600, height: 1200)
        let folder = desktop.home.appendingPathComponent("films").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let clip = folder + "/film.mp4"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.subtitleCanvas), toPath: clip)
        try "1\n00:00:01,000 --> 00:00:05,000\nHello World\n".write(toFile: folder + "/film.srt", atomically: true, encoding: .utf8)
        let other = folder + "/other.srt"
        try "1\n00:00:00,500 --> 00:00:05,000\nAnother file\n".write(toFile: other, atomically: true, encoding: .utf8)
        func words(_ app: ReelApp, _ name: String) throws -> String {
            try Self.ocr(try app.savePicture(width: 960, height: 540, name: name))
        }

        // 0.92 s: the cue beside the video starts at 1 s, so nothing yet.
        var app: ReelApp? = try ReelApp(on: desktop, arguments: ["--paused", "--start", "0.92", clip])
        #expect(!(try words(app!, "early")).contains("hello"))
        // Z Z: the subtitles 100 ms earlier, so the cue is on screen at 0.92 s.
        let movie = try app!.element(named: "Video")
        try desktop.click(movie.x + 5, movie.y + 5)
        try desktop.key("z", "z")
        try Desktop.wait("the cue brought forward", timeout: 30) { try words(app!, "earlier").contains("hello world") }

        try app!.activate("add-subtitle-file", string: other)
        try Desktop.wait("the added file on screen", timeout: 30) { try words(app!, "added").contains("another file") }
        #expect(!(try words(app!, "added-only")).contains("hello"))

        // The choice is kept for this file: the next run shows the added file again.
        app!.stop()
        app = try ReelApp(on: desktop, arguments: ["--paused", "--start", "2", clip])
        try Desktop.wait("the remembered file on screen", timeout: 30) { try words(app!, "again").contains("another file") }

        try app!.activate("subtitle-track", string: "off")
        try Desktop.wait("no subtitles", timeout: 30) {
            let text = try words(app!, "off")
            return !text.contains("another") && !text.contains("hello")
        }
        #expect(app!.isRunning)
        app!.stop()
    }

    @Test("# plays the next audio stream and says which over the picture, in turn back to the first")
    func nextAudioTrack() throws {
        try SharedDesktop.standard.use { desktop in
            // Messages stay while the tree is read (their going is the controls suite's).
            let folder = desktop.home.appendingPathComponent("config/glib-2.0/settings")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "[io/github/reel/Reel]\nmessage-display-duration=30.0\n"
                .write(to: folder.appendingPathComponent("keyfile"), atomically: true, encoding: .utf8)
            let app = try ReelApp(on: desktop, arguments: ["--paused", try Fixtures.path(.twoAudioStreams)])
            let movie = try app.element(named: "Video")
            try desktop.click(movie.x + 5, movie.y + 5)   // focus the window
            try desktop.key("numbersign")
            try app.waitForElement("the German stream named") { $0.role == "label" && $0.name.hasPrefix("Audio: German") }
            try desktop.key("numbersign")
            try app.waitForElement("back to the English stream") { $0.role == "label" && $0.name.hasPrefix("Audio: English") }
            app.stop()
        }
    }
}
