import Foundation
import ReelTestSupport
import Testing

/// The header bar lying over the picture: the real window under Xvfb, driven by real pointer
/// and key events, judged from screenshots (on the solid red clip anything not red is Reel's)
/// and the accessibility tree.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Header bar over the picture", .serialized)
struct HeaderBarTests {
    typealias Session = ControlsTests.Session

    /// The header bar's strip at the top of the picture, away from its buttons and title.
    static func headerShown(_ s: Session, _ name: String) throws -> Bool {
        let shot = try s.desktop.screenshot(name)
        let strip = try ScreenImage.average(shot, x: s.movie.x + s.movie.width / 8, y: s.movie.y + 2,
                                            width: s.movie.width / 5, height: 16)
        return strip.distance(to: .init(r: 255, g: 0, b: 0)) > 60
    }

    /// The left end of the controls bar (an open main menu hangs over the picture's right side).
    static func barShown(_ s: Session, _ name: String) throws -> Bool {
        let shot = try s.desktop.screenshot(name)
        let strip = try ScreenImage.average(shot, x: s.movie.x + 20, y: s.movie.y + s.movie.height - 40,
                                            width: s.movie.width / 5, height: 20)
        return strip.distance(to: .init(r: 255, g: 0, b: 0)) > 60
    }

    @Test("The picture fills the window, the header bar hidden over it; a pointer motion shows it with the controls, both fade; Tab shows them; then its open button opens the file chooser")
    func headerOverPicture() throws {
        try ControlsTests.desktops.use { desktop in
            // Paused, the header and the controls would stay up (ControlsTests' pause tests): here
            // they fade as while playing, with the picture still for the screenshots.
            let s = try Session(on: desktop, arguments: ["--paused"],
                                settings: ["controls-display-duration=1.0", "hide-controls-while-paused=true"])
            // The picture's area is the window's whole height: no title bar above it.
            let tree = try s.app.accessibleTree()
            let frame = try #require(tree.first { $0.role == "frame" }, "no frame in \(tree)")
            #expect(s.movie.y == frame.y && s.movie.height == frame.height,
                    "the picture's area \(s.movie) is not the window's height \(frame)")
            // Untouched since it opened: the top rows show the picture, not the header bar.
            #expect(try !Self.headerShown(s, "untouched"), "the header bar shows without any input")
            #expect(try !s.controlsShown("untouched-bar"))
            try s.desktop.glide(to: s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height / 3)
            try Desktop.wait("the header bar and the controls to show together", timeout: 5) {
                try Self.headerShown(s, "moved") && s.controlsShown("moved-bar")
            }
            try Desktop.wait("both to fade", timeout: 10) {
                try !Self.headerShown(s, "faded") && !s.controlsShown("faded-bar")
            }
            // Tab reaches into them as the pointer does: they show, so that the focus can move there.
            try s.desktop.click(s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height / 3)   // focus the window
            try Desktop.wait("the tap to show them", timeout: 5) { try Self.headerShown(s, "tap") }
            try Desktop.wait("them to fade after the tap", timeout: 10) {
                try !Self.headerShown(s, "tap-faded") && !s.controlsShown("tap-faded-bar")
            }
            try s.desktop.key("Tab")
            try Desktop.wait("Tab to show the header bar and the controls", timeout: 5) {
                try Self.headerShown(s, "tab") && s.controlsShown("tab-bar")
            }
            // Reaching for the open button shows it; a click there opens the file chooser.
            let open = try s.app.revealHeader(showing: "Open a file")
            try s.app.click(open)
            try Desktop.wait("the file chooser", timeout: 10) {
                try desktop.run(["xdotool", "search", "--onlyvisible", "--name", "^Open Videos$"], check: false).status == 0
            }
            try s.desktop.key("Escape")
        }
    }

    @Test("With the main menu open (F10, the pointer resting on the picture) the header bar and the controls stay up")
    func menuKeepsControls() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try Session(on: desktop, arguments: ["--start", "0"], settings: ["controls-display-duration=1.0"])
            try s.desktop.click(s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height / 3)   // focus the window
            try Desktop.wait("the tap to show the controls", timeout: 10) { try Self.barShown(s, "tap") }
            try Desktop.wait("the controls to fade after the tap", timeout: 10) {
                try !Self.barShown(s, "tap-faded") && !Self.headerShown(s, "tap-faded-header")
            }
            try s.desktop.key("F10")
            try s.app.waitForElement("the main menu open") { $0.name == "Media Information" }
            try Desktop.wait("the menu to show the header bar and the controls", timeout: 10) {
                try Self.headerShown(s, "menu") && Self.barShown(s, "menu-bar")
            }
            let opened = try #require(try s.elapsed())
            // Not hiding is seen on the film's clock: three display durations of playing after the
            // menu opened, the pointer still (and before the 10 s clip's end, which shows them).
            try Desktop.wait("the film to play on", timeout: 30) { (try s.elapsed() ?? 0) >= opened + 3 }
            #expect(try Self.barShown(s, "menu-later-bar"), "the controls hid under the open menu")
            #expect(try Self.headerShown(s, "menu-later"), "the header bar hid under its open menu")
            #expect(try #require(try s.elapsed()) < 9.5, "the clip ended: the controls show for that")
        }
    }
}
