import Foundation
import ReelTestSupport
import Testing

/// Subtitles in the window: a file beside the video shows over the picture as drawn by the GL
/// surface, a file added later replaces it, and switching off removes it. Read back with OCR
/// (tesseract) from the renderer's own picture.
/// Threading: serialised (one Xvfb and GL rasteriser at a time); each test owns its desktop.
@Suite("Subtitles in the window", .serialized)
struct SubtitleWindowTests {
    static func ocr(_ png: String) throws -> String {
        try Command.run(["tesseract", png, "-", "--psm", "6"], check: false).output.lowercased()
            .split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    @Test("The file beside the video is drawn over the picture; an added file and Off switch it")
    func drawnOverPicture() throws {
        let desktop = try Desktop(width: 1600, height: 1200)
        let folder = desktop.home.appendingPathComponent("films").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let clip = folder + "/film.mp4"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.subtitleCanvas), toPath: clip)
        try "1\n00:00:00,500 --> 00:00:05,000\nHello World\n".write(toFile: folder + "/film.srt", atomically: true, encoding: .utf8)
        let other = folder + "/other.srt"
        try "1\n00:00:00,500 --> 00:00:05,000\nAnother file\n".write(toFile: other, atomically: true, encoding: .utf8)

        let app = try ReelApp(on: desktop, arguments: ["--paused", "--start", "1", clip])
        defer { app.stop() }
        var words = ""
        try Desktop.wait("the subtitle beside the video on screen", timeout: 30) {
            words = try Self.ocr(try app.savePicture(width: 960, height: 540, name: "beside"))
            return words.contains("hello world")
        }

        try app.activate("add-subtitle-file", string: other)
        try Desktop.wait("the added file on screen", timeout: 30) {
            words = try Self.ocr(try app.savePicture(width: 960, height: 540, name: "added"))
            return words.contains("another file")
        }
        #expect(!words.contains("hello"))

        try app.activate("subtitle-track", string: "off")
        try Desktop.wait("no subtitles", timeout: 30) {
            words = try Self.ocr(try app.savePicture(width: 960, height: 540, name: "off"))
            return !words.contains("another") && !words.contains("hello")
        }
        #expect(app.isRunning)
    }
}
