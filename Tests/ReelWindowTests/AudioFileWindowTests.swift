import Foundation
import ReelTestSupport
import Testing

/// A sound file added to a playing video in the window, through the window's action (as Audio ▸
/// Add Audio File… does once its file chooser answers): the billboard names it, the Audio
/// menu has it chosen, and the video plays on with it. (That it is heard in step with the
/// picture is ExternalAudioTests'.)
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Adding a sound file", .serialized)
struct AudioFileWindowTests {
    @Test("add-audio-file on a playing video: the billboard says it, the Audio menu has it chosen, the video plays on")
    func added() throws {
        try SharedDesktop.standard.use { desktop in
            try desktop.writeSettings([ControlsTests.readableMessages, "remember-queue=false"])
            let (video, sound) = try Self.fixtures()
            let app = try ReelApp(on: desktop, arguments: [video])
            defer { app.stop() }
            try app.element(named: "Pause")
            _ = try desktop.run(["gdbus", "call", "--session", "--dest", "io.github.reel.Reel", "--object-path",
                                 "/io/github/reel/Reel/window/1", "--method", "org.gtk.Actions.Activate",
                                 "add-audio-file", "[<'\(sound)'>]", "{}"])
            try app.waitForElement("the billboard naming the sound file") {
                $0.role == "label" && $0.name.hasPrefix("Audio: external-audio-noise.flac")
            }
            try app.element(named: "Pause")
            // The Audio menu's choice (its radio items' action, as the menu shows it checked):
            // the file's stream, listed after the media's own.
            try Desktop.wait("the sound file chosen in the Audio menu", log: app.log) {
                let answer = try desktop.run(["gdbus", "call", "--session", "--dest", "io.github.reel.Reel", "--object-path",
                                              "/io/github/reel/Reel/window/1", "--method", "org.gtk.Actions.Describe",
                                              "audio-track"]).output
                return answer.contains("'1000000'")
            }
            try app.element(named: "Pause")
        }
    }

    static func fixtures() throws -> (video: String, sound: String) {
        (try SoundFileFixtures.pictureOnly(.longSmall, name: "audio-file-window-picture.mp4"), try SoundFileFixtures.whiteNoise())
    }
}
