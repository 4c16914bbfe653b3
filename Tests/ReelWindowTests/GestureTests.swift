import Foundation
import ReelTestSupport
import Testing

/// The everyday gestures with real input: a right click on the picture opens its menu, the
/// wheel over it changes the volume and, with Shift or sideways, seeks; F1 opens the keyboard
/// shortcuts; a queue of two gets previous and next buttons in the controls bar.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Gestures on the picture", .serialized)
struct GestureTests {
    typealias Session = ControlsTests.Session

    @Test("A right click opens the picture's menu: its actions, named for what they do now, and Pause pauses")
    func contextMenu() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try Session(on: desktop)
            let x = s.movie.x + s.movie.width / 3, y = s.movie.y + s.movie.height / 3
            try s.desktop.xdotool(["mousemove", String(x), String(y), "click", "3"])
            let items = ["Pause", "Fullscreen", "Playback Speed", "Subtitles", "Audio", "Save Picture…", "Media Information"]
            let tree = try s.app.waitForTree("the picture's menu") { tree in
                items.allSatisfy { name in tree.contains { $0.role == "menu item" && $0.name == name } }
            }
            for name in items {
                let item = try #require(tree.first { $0.role == "menu item" && $0.name == name })
                #expect(item.states.contains("sensitive"), "\(name) is not offered while a film plays: \(item)")
            }
            // Where the click was: the menu's grey just below and right of the pointer, where the
            // solid red picture was. (A popover's items are placed relative to the popover in the
            // accessibility tree, so the screen tells where it is.)
            let shot = try s.desktop.screenshot("context-menu")
            let below = try ScreenImage.average(shot, x: x + 20, y: y + 12, width: 100, height: 20)
            #expect(below.distance(to: .init(r: 255, g: 0, b: 0)) > 150, "no menu by the pointer: \(below)")
            // Its mnemonic, as a person picks it from the keyboard: _Pause.
            try s.desktop.key("p")
            try s.app.element(named: "Play", role: "push button")
            // Named for what it does now.
            try s.desktop.xdotool(["mousemove", String(x), String(y), "click", "3"])
            try s.app.waitForElement("Play in the picture's menu") { $0.role == "menu item" && $0.name == "Play" }
            try s.desktop.key("Escape")
        }
    }

    @Test("The wheel over the picture changes the volume (with the billboard); Shift+wheel and sideways scrolling seek")
    func wheel() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try Session(on: desktop, arguments: ["--paused"], clip: .longSmall, settings: ["message-display-duration=30.0"])
            let x = s.movie.x + s.movie.width / 2, y = s.movie.y + s.movie.height / 3
            // The level as the desktop's remote reads it (the volume button's slider is in its popover).
            func volume(_ percent: Int) throws {
                try Desktop.wait("the volume at \(percent) %", log: s.app.log) {
                    abs((Double(try MPRISTests.playerctl(s.desktop, ["volume"])) ?? -1) - Double(percent) / 100) < 0.001
                }
            }
            try s.desktop.xdotool(["mousemove", String(x), String(y), "click", "5"])
            try volume(95)
            try s.app.waitForElement("the billboard with the volume") { $0.role == "label" && $0.name == "Volume 95 %" }
            try s.desktop.xdotool(["click", "5", "click", "5"])
            try volume(85)
            try s.desktop.xdotool(["click", "4"])
            try volume(90)
            // Seeking, paused: 5 s a notch, later down (with Shift) and right, earlier up and left.
            func at(_ seconds: Double) throws {
                var seen: [Double] = []
                do {
                    try Desktop.wait("the time at \(seconds) s", timeout: 10) {
                        guard let t = try s.elapsed() else { return false }
                        seen.append(t)
                        return abs(t - seconds) < 1
                    }
                } catch {
                    Issue.record("the elapsed time read \(seen), not \(seconds)")
                    throw error
                }
            }
            try at(0)
            try s.desktop.xdotool(["keydown", "shift", "click", "5", "keyup", "shift"])
            try at(5)
            try s.desktop.xdotool(["click", "7"])
            try at(10)
            try s.desktop.xdotool(["click", "6"])
            try at(5)
            try volume(90)   // seeking left the volume alone
            #expect(try s.app.accessibleTree().contains { $0.name == "Play" }, "scrolling started playing")
        }
    }

    @Test("F1 opens the keyboard shortcuts, and Escape closes them")
    func helpKey() throws {
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop)
            try app.element(named: "Open a Video")
            let g = try app.geometry()
            try desktop.click(g.x + 24, g.y + g.height / 2)   // focus the window
            try desktop.key("F1")
            // A row only the shortcuts window has.
            try app.waitForElement("the shortcuts window") { $0.role == "label" && $0.name == "Leave fullscreen" }
            // On a 1280x800 screen, the whole window: its widest row (the media keys) once pushed
            // its close button off the right edge.
            let shortcuts = try app.window(named: "Keyboard Shortcuts").geometry()
            let x = shortcuts.x, width = shortcuts.width
            #expect(x >= 0 && x + width <= desktop.width, "the shortcuts window spans x \(x) to \(x + width) on a screen \(desktop.width) wide")
            try desktop.key("Escape")
            try Desktop.wait("Escape to close the shortcuts", log: app.log, timeout: 10) {
                try !app.accessibleTree().contains { $0.role == "label" && $0.name == "Leave fullscreen" }
            }
        }
    }

    @Test("With two items in the queue the controls bar has previous and next (Next plays the second); with one it has neither")
    func queueButtons() throws {
        try ControlsTests.desktops.use { desktop in
            let one = try Session(on: desktop)
            try one.desktop.glide(to: one.movie.x + one.movie.width / 2, one.movie.y + one.movie.height - 30)
            try Desktop.wait("the controls to show", timeout: 5) { try one.controlsShown("one") }
            // Buttons of the bar that are hidden are not "visible"; those of a faded bar still are.
            let single = try one.app.accessibleTree()
            #expect(single.contains { $0.name == "Fast forward" && $0.states.contains("visible") })
            #expect(!single.contains { ["Previous", "Next"].contains($0.name) && $0.role == "push button" && $0.states.contains("visible") },
                    "previous or next with one item")
            one.app.stop()

            // A minute first, so that nothing moves on by itself meanwhile.
            let first = try Fixtures.path(.longSmall)
            let s = try Session(on: desktop, arguments: [first], clip: .h264MP4)
            try s.desktop.glide(to: s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height - 30)
            let tree = try s.app.waitForTree("previous and next in the bar") { tree in
                ["Previous", "Next"].allSatisfy { name in
                    tree.contains { $0.role == "push button" && $0.name == name && $0.states.contains("visible") }
                }
            }
            let play = try #require(tree.first { $0.role == "push button" && ["Play", "Pause"].contains($0.name) })
            let previous = try #require(tree.first { $0.role == "push button" && $0.name == "Previous" })
            let next = try #require(tree.first { $0.role == "push button" && $0.name == "Next" })
            #expect(previous.x < play.x && play.x < next.x, "not around the play button: \(previous) \(play) \(next)")
            #expect(abs(previous.y - play.y) < 8 && abs(next.y - play.y) < 8)
            try s.app.click(next)
            try Desktop.wait("the second item to play", log: s.app.log, timeout: 20) { s.app.title.contains("h264-30fps-bframes") }
        }
    }
}
