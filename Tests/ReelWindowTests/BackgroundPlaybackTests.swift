import Foundation
import ReelTestSupport
import Testing

/// Closing the window while something plays: by default playback stops and Reel quits; with
/// "keep playing when the window is closed" the window goes, the sound and the media remote
/// stay, and Raise brings the window back. (Quitting once the queue is done in the background
/// is the playback session's rule: ReelUnitTests.)
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Playing in the background", .serialized)
struct BackgroundPlaybackTests {
    static func gsettings(_ desktop: Desktop, _ arguments: [String]) throws {
        let schemas = desktop.home.appendingPathComponent("cache/reel/schemas").path
        try desktop.run(["env", "GSETTINGS_SCHEMA_DIR=\(schemas)", "gsettings"] + arguments)
    }

    static func position(_ desktop: Desktop) throws -> Double {
        Double(try desktop.run(["playerctl", "--player=reel", "position"], check: false).output
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    static func visibleWindows(_ app: ReelApp) throws -> Int {
        try app.desktop.run(["xdotool", "search", "--onlyvisible", "--pid", String(app.pid)], check: false).output
            .split(separator: "\n").count
    }

    /// Closes the window as its close button or Alt+F4 does (the window manager asks it to),
    /// and waits until `closed` holds. On a loaded machine the window manager can take the key
    /// before the window has the focus it was given, and the key goes nowhere: then it is
    /// pressed again (Reel never sees more than one close request while it stays open).
    static func closeWindow(_ app: ReelApp, _ what: String, timeout: Double = 20, until closed: () throws -> Bool) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        repeat {
            // Not checked: a window closing meanwhile cannot be activated any more.
            _ = try? app.desktop.xdotool(["windowactivate", "--sync", app.window])
            _ = try? app.desktop.key("alt+F4")
            let attempt = Date(timeIntervalSinceNow: 4)
            while Date() < attempt {
                if try closed() { return }
                usleep(100_000)
            }
        } while Date() < deadline
        try Desktop.wait(what, log: app.log, timeout: 0.1, closed)
    }

    @Test("By default closing the window stops playback and quits")
    func closingQuits() throws {
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop, arguments: [try Fixtures.path(.longSmall)])
            try app.element(named: "Pause")
            try Self.closeWindow(app, "Reel to quit") { !app.isRunning }
        }
    }

    @Test("With the preference on, closing hides the window and the sound goes on; Raise brings it back")
    func keepsPlaying() throws {
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop, arguments: ["--paused", try Fixtures.path(.longSmall)])
            try app.element(named: "Play")
            try Self.gsettings(desktop, ["set", "io.github.reel.Reel", "background-playback", "true"])
            try desktop.run(["playerctl", "--player=reel", "play"])
            try app.element(named: "Pause")
            try Self.closeWindow(app, "the window to go") { try Self.visibleWindows(app) == 0 }
            #expect(app.isRunning)
            // Playing on with no window: the position moves a whole second on (paused, it would
            // stay where it is and the wait would run out).
            let before = try Self.position(desktop)
            try #require(before >= 0, "playerctl read no position")
            try Desktop.wait("the position to move on in the background", log: app.log, timeout: 20) {
                try Self.position(desktop) - before >= 1
            }
            #expect(try desktop.run(["playerctl", "--player=reel", "status"]).output.contains("Playing"))
            try desktop.run(["gdbus", "call", "--session", "--dest", "org.mpris.MediaPlayer2.reel", "--object-path",
                             "/org/mpris/MediaPlayer2", "--method", "org.mpris.MediaPlayer2.Raise"])
            try Desktop.wait("the window back", log: app.log, timeout: 10) { try Self.visibleWindows(app) >= 1 }
            try app.element(named: "Pause")
            app.stop()
        }
    }
}
