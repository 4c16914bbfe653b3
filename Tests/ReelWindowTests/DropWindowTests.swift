import Foundation
import ReelTestSupport
import Testing

/// Files dragged from another program's window (a GTK 4 drag source offering `text/uri-list`,
/// as Files does) and dropped on Reel's with real pointer events: a video on the empty window
/// plays; a sound file on a playing video is played with it; a subtitle file is shown with it.
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Dropping files on the window", .serialized)
struct DropWindowTests {
    /// Drops `paths` on the middle of `app`'s window from a drag source of their own.
    static func drop(_ paths: [String], on app: ReelApp, _ desktop: Desktop) throws {
        let source = try DragSource(on: desktop, offering: paths)
        defer { source.stop() }
        let window = try app.geometry()
        try source.drag(to: window.x + window.width / 2, window.y + window.height / 2)
    }

    @Test("A video dropped on the empty window plays")
    func videoOnEmptyWindow() throws {
        try SharedDesktop.standard.use { desktop in
            try desktop.writeSettings([ControlsTests.readableMessages, "remember-queue=false"])
            let film = desktop.home.appendingPathComponent("dropped film.mp4").path
            if !FileManager.default.fileExists(atPath: film) { try FileManager.default.copyItem(atPath: try Fixtures.path(.longSmall), toPath: film) }
            let app = try ReelApp(on: desktop)
            defer { app.stop() }
            try Self.drop([film], on: app, desktop)
            try Desktop.wait("the dropped film playing", log: app.log) { app.title.contains("dropped film") }
            try app.element(named: "Pause")
        }
    }

    @Test("A sound file dropped on a playing video is played with it; a subtitle file is shown with it")
    func tracksOnPlayingVideo() throws {
        try SharedDesktop.standard.use { desktop in
            try desktop.writeSettings([ControlsTests.readableMessages, "remember-queue=false"])
            let (video, sound) = try AudioFileWindowTests.fixtures()
            let app = try ReelApp(on: desktop, arguments: [video])
            defer { app.stop() }
            try app.element(named: "Pause")
            try Self.drop([sound], on: app, desktop)
            try app.waitForElement("the billboard naming the sound file") {
                $0.role == "label" && $0.name.hasPrefix("Audio: external-audio-noise.flac")
            }
            try Desktop.wait("the sound file chosen in the Audio menu", log: app.log) {
                let answer = try desktop.run(["gdbus", "call", "--session", "--dest", "io.github.reel.Reel", "--object-path",
                                              "/io/github/reel/Reel/window/1", "--method", "org.gtk.Actions.Describe",
                                              "audio-track"]).output
                return answer.contains("'1000000'")
            }
            #expect(app.title.contains("audio-file-window-picture"), "the video was replaced: \(app.title)")
            let subtitles = desktop.home.appendingPathComponent("dropped words.srt").path
            try "1\n00:00:00,000 --> 00:01:00,000\nDropped words\n".write(toFile: subtitles, atomically: true, encoding: .utf8)
            try Self.drop([subtitles], on: app, desktop)
            try app.waitForElement("the billboard naming the subtitle file") {
                $0.role == "label" && $0.name.hasPrefix("Subtitles: dropped words")
            }
            #expect(app.title.contains("audio-file-window-picture"), "the video was replaced: \(app.title)")
            try app.element(named: "Pause")
        }
    }
}
