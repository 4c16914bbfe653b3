import Foundation
import ReelTestSupport
import Testing

/// Paused, the controls and the header bar stay up (as in Showtime and Clapper: a still picture
/// with nothing over it looks frozen), whoever paused: a key, the desktop's remote; a
/// preference lets them fade anyway. The real window on the solid red clip, where anything not
/// red is Reel's.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Controls while paused", .serialized)
struct PausedControlsTests {
    typealias Session = ControlsTests.Session

    /// The controls bar and the header bar are both on screen.
    static func chromeShown(_ s: Session, _ name: String) throws -> Bool {
        try s.controlsShown("\(name)-bar") && HeaderBarTests.headerShown(s, name)
    }

    /// Looks at the screen again and again from `since` until `seconds` have passed (however
    /// long that takes: a lower bound on the wait, never an upper one), and records every look
    /// that finds the controls or the header gone. Staying up can only be seen by waiting past
    /// the moment they would have faded.
    static func expectShown(_ s: Session, for seconds: Double, since: Date, _ what: String) throws {
        var looks = 0
        repeat {
            looks += 1
            #expect(try chromeShown(s, "\(what)-\(looks)"), "\(what): the controls or the header went, \(Date().timeIntervalSince(since)) s after the pause")
        } while Date().timeIntervalSince(since) < seconds
    }

    @Test("Paused by a key or by the remote, the controls and the header stay up long past the display duration; the preference lets them fade")
    func stayWhilePaused() throws {
        try ControlsTests.desktops.use { desktop in
            // A second's display: five of them pass while paused.
            let s = try Session(on: desktop, settings: ["controls-display-duration=1.0"])
            try s.desktop.click(s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height / 3)   // focus the window
            try Desktop.wait("the tap to show the controls", timeout: 10) { try s.controlsShown("tap") }
            try Desktop.wait("them to fade while playing", timeout: 10) { try !s.controlsShown("tap-faded") }

            // Space pauses: up they come, and stay.
            try s.desktop.key("space")
            try s.app.element(named: "Play")
            let pausedByKey = Date()
            try Desktop.wait("the pause to show them", timeout: 10) { try Self.chromeShown(s, "key-paused") }
            try Self.expectShown(s, for: 5, since: pausedByKey, "paused by a key")

            // Playing again they fade as always; the remote's pause brings them back to stay.
            try s.desktop.key("space")
            try s.app.element(named: "Pause")
            try Desktop.wait("them to fade after play resumed", timeout: 10) { try !s.controlsShown("playing-faded") }
            _ = try MPRISTests.playerctl(desktop, ["pause"])
            try s.app.element(named: "Play")
            let pausedByRemote = Date()
            try Desktop.wait("the remote's pause to show them", timeout: 10) { try Self.chromeShown(s, "remote-paused") }
            try Self.expectShown(s, for: 5, since: pausedByRemote, "paused by the remote")
            #expect(try #require(try s.elapsed()) < 9.5, "the clip ended: the end shows them too")

            // Hide them while paused too: the next input shows them for the display duration only.
            _ = try PreferencesWindowTests.gsettings(desktop, ["set", "io.github.reel.Reel", "hide-controls-while-paused", "true"])
            try s.desktop.glide(to: s.movie.x + s.movie.width / 3, s.movie.y + s.movie.height / 2)
            try Desktop.wait("them to fade while paused, as the preference says", timeout: 10) {
                try !s.controlsShown("preference-faded") && !HeaderBarTests.headerShown(s, "preference-faded-header")
            }
            try s.app.element(named: "Play")
        }
    }

    @Test("Opened paused, the controls are up over the first picture")
    func openedPaused() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try Session(on: desktop, arguments: ["--paused"], settings: ["controls-display-duration=1.0"])
            try Desktop.wait("the controls over the paused picture", timeout: 10) { try Self.chromeShown(s, "opened-paused") }
            try Self.expectShown(s, for: 3, since: Date(), "opened paused")
        }
    }
}
