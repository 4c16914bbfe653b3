import Foundation
import ReelTestSupport
import Testing

/// The one volume button in the bar, as GNOME's players have it: its icon follows the level and
/// says when the sound is muted (read from the screen), its accessible name says muted, and its
/// popover's toggle is named for what it does (Mute, or Unmute). The level and mute are checked
/// against the desktop's remote (MPRIS: the volume, 0 while muted). The real window on the
/// solid red clip, paused, the pointer resting on the bar.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Volume button", .serialized)
struct VolumeButtonTests {
    typealias Session = ControlsTests.Session

    static func volume(_ s: Session) throws -> Double {
        Double(try MPRISTests.playerctl(s.desktop, ["volume"])) ?? -1
    }

    /// The button's icon as drawn (its box cut from a screenshot, without date chunks, so equal
    /// pixels make equal files).
    static func icon(_ s: Session, _ button: AccessibleNode, _ name: String) throws -> Data {
        let shot = try s.desktop.screenshot(name)
        let crop = s.desktop.home.appendingPathComponent("\(name)-icon.png").path
        try Command.run(["convert", shot, "-crop", "\(button.width)x\(button.height)+\(button.x)+\(button.y)", "+repage",
                         "-strip", "-define", "png:exclude-chunks=date,time", crop])
        return FileManager.default.contents(atPath: crop) ?? Data()
    }

    /// Presses ↓ until the remote reads `level`, then waits for the button's icon to differ
    /// from `before`; returns the new icon.
    static func stepDown(_ s: Session, to level: Double, from before: Data, _ button: AccessibleNode, _ name: String) throws -> Data {
        while try volume(s) > level + 0.001 {
            let was = try volume(s)
            try s.desktop.key("Down")
            try Desktop.wait("the volume below \(was)", log: s.app.log) { try volume(s) < was - 0.001 }
        }
        #expect(abs(try volume(s) - level) < 0.001)
        var icon = Data()
        try Desktop.wait("the volume button's icon to change at \(level)", log: s.app.log, timeout: 10) {
            icon = try Self.icon(s, button, name)
            return icon != before
        }
        return icon
    }

    @Test("The icon follows the level (high, medium, low) and mute; M and the popover's toggle mute and unmute, named for what they do")
    func tellsTheTruth() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try Session(on: desktop, arguments: ["--paused"])
            try s.desktop.xdotool(["windowactivate", "--sync", s.app.window])   // keys to the window, without a tap
            let button = try s.app.waitForElement("the volume button") { $0.name == "Volume" }
            // The pointer resting on the bar, on the elapsed time, away from the button: the
            // controls stay up, and the button is drawn without a hover.
            let elapsed = try s.app.waitForElement("the elapsed time") { $0.role == "label" && $0.name == "0:00" }
            try s.desktop.glide(to: elapsed.x + elapsed.width / 2, elapsed.y + elapsed.height / 2)
            try Desktop.wait("the controls up", timeout: 10) { try s.controlsShown("shown") }
            #expect(try Self.volume(s) == 1)
            let high = try Self.icon(s, button, "high")
            let medium = try Self.stepDown(s, to: 0.6, from: high, button, "medium")
            let low = try Self.stepDown(s, to: 0.3, from: medium, button, "low")
            #expect(low != high)

            // M: muted, and the button says so by its name and its icon.
            try s.desktop.key("m")
            try s.app.waitForElement("the volume button named muted") { $0.name == "Volume, muted" }
            try Desktop.wait("the remote to read no sound", log: s.app.log) { try Self.volume(s) == 0 }
            var muted = Data()
            try Desktop.wait("the crossed-out icon", log: s.app.log, timeout: 10) {
                muted = try Self.icon(s, button, "muted")
                return ![high, medium, low].contains(muted)
            }

            // A click opens the popover; its toggle, focused, offers to unmute, and Enter does.
            // (GTK 4.8 places a popover's elements wrongly for a click: the keyboard it is.)
            try s.app.click(button)
            let unmute = try s.app.waitForElement("the toggle offering to unmute") {
                $0.name == "Unmute" && $0.role == "push button" && $0.states.contains("visible")
            }
            #expect(unmute.states.contains("pressed") || unmute.states.contains("checked"), "\(unmute)")
            #expect(unmute.states.contains("focused"), "\(unmute)")
            try s.desktop.key("Return")
            try s.app.waitForElement("the toggle offering to mute again") { $0.name == "Mute" && $0.role == "push button" }
            try s.app.waitForElement("the volume button unmuted") { $0.name == "Volume" }
            try Desktop.wait("the sound back at 30 %", log: s.app.log) { abs(try Self.volume(s) - 0.3) < 0.001 }
        }
    }
}
