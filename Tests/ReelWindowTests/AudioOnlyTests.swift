import Foundation
import ReelTestSupport
import Testing

/// Sound without video in the real window: the file's cover art with its title and artist,
/// or a sound icon and the name when it has none; the controls stay up (there is no picture
/// for them to cover). Judged from the accessibility tree and a screenshot.
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Sound-only media in the window", .serialized)
struct AudioOnlyTests {
    @Test("Cover art, title and artist are shown; without cover art a sound icon and the name; the controls stay")
    func coverAndTitle() throws {
        let song = try Fixtures.path(.songWithCover)
        let plain = try Fixtures.path(.audioOnly)
        try SharedDesktop.standard.use { desktop in
            // The preference at a second instead of its default 2 s (the default and its timing
            // are ControlsVisibilityTests'): not hiding is seen by waiting, here 2.5 of them.
            let display = 1.0
            let settings = desktop.home.appendingPathComponent("config/glib-2.0/settings")
            try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
            try "[io/github/reel/Reel]\ncontrols-display-duration=\(display)\n"
                .write(to: settings.appendingPathComponent("keyfile"), atomically: true, encoding: .utf8)
            let app = try ReelApp(on: desktop, arguments: [song, plain])
            defer { app.stop() }
            let cover = try app.waitForElement("the cover art") { $0.name == "Cover art" && $0.width > 100 }
            try app.element(named: "Test Song", role: "label")
            try app.element(named: "Reel Band — Reel Album", role: "label")
            // The cover (testsrc2's colour bars) is drawn, not a black square.
            let shot = try desktop.screenshot("cover")
            let middle = try ScreenImage.average(shot, x: cover.x + cover.width / 4, y: cover.y + cover.height / 4,
                                                 width: cover.width / 2, height: cover.height / 2)
            #expect(middle.r + middle.g + middle.b > 200, "the cover area is dark: \(middle)")
            // 2.5 display durations without input: the controls are still there.
            usleep(UInt32(display * 2.5 * 1_000_000))
            try app.element(named: "Pause")
            let bar = try app.element(named: "Position", role: "slider")
            let strip = try ScreenImage.average(try desktop.screenshot("controls"), x: bar.x, y: bar.y, width: bar.width, height: bar.height)
            #expect(strip.r + strip.g + strip.b > 60, "no scrubber drawn after \(display * 2.5) s: \(strip)")

            try desktop.key("greater")
            let name = (plain as NSString).lastPathComponent
            try app.element(named: name, role: "label")
            #expect(try !app.accessibleTree().contains { $0.name == "Cover art" && $0.states.contains("visible") },
                    "a cover is shown for a file without one")
        }
    }
}
