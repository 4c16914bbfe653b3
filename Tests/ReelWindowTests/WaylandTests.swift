import Foundation
import ReelTestSupport
import Testing

/// Reel on Wayland, as GNOME runs it by default: a Wayland client of a real compositor
/// (`WestonCompositor`), driven by real pointer and key events through the compositor's seat,
/// seen on the compositor's output. The core of the X11 window suites, again there: the picture
/// drawn as FFmpeg converts it, the controls shown by the pointer, keys, and a scrub by drag.
/// Threading: serialised; each test has a desktop and a compositor of its own.
@Suite("On Wayland", .serialized)
struct WaylandTests {
    /// A desktop with Weston full-screen on it, and Reel on Weston.
    /// `output`: the compositor's output size (the desktop's when nil).
    /// `before`: what starts ahead of Reel on the desktop (a session manager).
    static func onCompositor<T>(settings: [String] = [], arguments: [String], output: (width: Int, height: Int)? = nil,
                                shell: WestonCompositor.Shell = .kiosk, before: (Desktop) throws -> Void = { _ in },
                                _ body: (Desktop, WestonCompositor, ReelApp) throws -> T) throws -> T {
        let desktop = try Desktop(windowManager: false)
        defer { desktop.stop() }
        try desktop.writeSettings(["remember-queue=false", ControlsTests.readableMessages] + settings)
        // The output 16:9 as the clips are (no black bars), and smaller than the X screen:
        // the pointer can rest outside it (where Reel's window does not see it).
        let compositor = try WestonCompositor(on: desktop, width: output?.width ?? 1024, height: output?.height ?? 576, shell: shell)
        defer { compositor.stop() }
        try desktop.moveMouse(desktop.width - 2, desktop.height - 2)
        try before(desktop)
        let app = try ReelApp(on: desktop, compositor: compositor, arguments: arguments)
        defer { app.stop() }
        // A Wayland client: no X window of Reel's on the X server under the compositor.
        let xWindows = try desktop.run(["xdotool", "search", "--pid", String(app.pid)], check: false).output
        #expect(xWindows.split(separator: "\n").isEmpty, "Reel made X windows: \(xWindows)")
        return try body(desktop, compositor, app)
    }

    @Test("A known frame shows on the compositor's screen as FFmpeg converts it")
    func drawsTheFrame() throws {
        let testCase = MovieRendererTests.cases[1]  // yuv420p BT.709 limited, H.264
        let clip = try Fixtures.path(testCase.spec)
        let (width, height) = (MovieRendererTests.width, MovieRendererTests.height)
        // The output as large as the picture: the kiosk shell gives the window all of it, and
        // the picture is drawn 1:1.
        try Self.onCompositor(settings: ["hide-controls-while-paused=true"], arguments: ["--paused", "--start", MovieRendererTests.start, clip],
                              output: (width, height)) { desktop, _, app in
            let oracle = desktop.home.appendingPathComponent("wayland-ffmpeg.png").path
            try PictureOracle.convert(clip, frame: MovieRendererTests.frameIndex, testCase.oracle, to: oracle)
            let video = try app.element(named: "Video")
            let x = video.x + (video.width - width) / 2, y = video.y + (video.height - height) / 2
            var psnr = 0.0
            do {
                try Desktop.wait("the frame on screen", log: app.log) {
                    let shot = try desktop.screenshot("wayland-screen")
                    let cut = desktop.home.appendingPathComponent("wayland-picture.png").path
                    try Command.run(["convert", shot, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage", cut])
                    psnr = try PictureOracle.psnr(cut, oracle)
                    return psnr >= MovieRendererTests.threshold
                }
            } catch {
                Issue.record("the screen shows \(psnr) dB of FFmpeg's picture (the video area \(video))")
            }
        }
    }

    @Test("Pointer motion shows the controls; Space pauses and plays; → seeks; a drag on the scrubber seeks")
    func pointerKeysAndScrub() throws {
        // Paused from the start, so that the ten seconds of red last the test out.
        try Self.onCompositor(settings: ["controls-display-duration=1.0", "hide-controls-while-paused=true"],
                              arguments: ["--paused", try Fixtures.path(.solidRed)]) { desktop, _, app in
            let movie = try app.element(named: "Video")
            // The strip where the controls bar shows, inside the red picture.
            func controlsShown(_ name: String) throws -> Bool {
                let shot = try desktop.screenshot(name)
                return try ScreenImage.average(shot, x: movie.x + movie.width / 4, y: movie.y + movie.height - 40,
                                               width: movie.width / 2, height: 20).distance(to: .init(r: 255, g: 0, b: 0)) > 60
            }
            try Desktop.wait("the picture without the controls", log: app.log) { try !controlsShown("launch") }
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height / 3)
            try Desktop.wait("the controls shown by the pointer", log: app.log) { try controlsShown("pointer") }
            try desktop.key("space")
            try app.element(named: "Pause")
            try desktop.key("space")
            try app.element(named: "Play")
            func position() throws -> Double? {
                try app.accessibleTree().first { $0.role == "slider" && $0.name == "Position" }?.value
            }
            let before = try #require(try position())
            try desktop.key("Right")
            try Desktop.wait("a seek forward", log: app.log) { (try position() ?? 0) > before + 3 }
            // Paused still: a drag along the scrubber, as a hand does, from near its end back
            // to a fifth of it.
            let bar = try app.element(named: "Position", role: "slider")
            let y = bar.y + bar.height / 2, from = bar.x + bar.width * 9 / 10, to = bar.x + bar.width / 5
            // Brought up (paused, they hide after a second) and held up by the pointer on them.
            try desktop.glide(to: from, y)
            try Desktop.wait("the controls under the pointer", log: app.log) { try controlsShown("before-drag") }
            try desktop.xdotool(["mousedown", "1"])
            for step in 1...10 {
                try desktop.moveMouse(from + (to - from) * step / 10, y)
                usleep(30_000)
            }
            try desktop.xdotool(["mouseup", "1"])
            var seen: Double?
            do {
                try Desktop.wait("the drag's seek back", log: app.log) {
                    seen = try position()
                    return (seen ?? 10) < 3.5
                }
            } catch {
                _ = try? desktop.screenshot("after-drag")
                Issue.record("after the drag from \(from) to \(to) at \(y) on \(bar): the position read \(String(describing: seen))")
                throw error
            }
            try desktop.key("space")
            try app.element(named: "Pause")
        }
    }

    @Test("While video plays idleness is held off, and let back on pause; the media remote plays and pauses it")
    func idleAndRemote() throws {
        var sessionManager: SessionManagerStandIn?
        try Self.onCompositor(arguments: [try Fixtures.path(.longSmall)], before: { sessionManager = try SessionManagerStandIn(on: $0) }) { desktop, _, app in
            let held = try #require(sessionManager)
            try app.element(named: "Pause")
            try Desktop.wait("an idle inhibition while playing", log: app.log) { held.held().count == 1 }
            _ = try MPRISTests.playerctl(desktop, ["pause"])
            try app.element(named: "Play")
            try Desktop.wait("the inhibition released on pause", log: app.log) { held.held().isEmpty }
            _ = try MPRISTests.playerctl(desktop, ["play"])
            try app.element(named: "Pause")
            try Desktop.wait("held off again on play", log: app.log) { held.held().count == 1 }
        }
    }

    @Test("F10 opens the main menu as a popover under its button; Escape closes it")
    func popover() throws {
        try Self.onCompositor(arguments: ["--paused", try Fixtures.path(.solidRed)]) { desktop, compositor, app in
            try app.element(named: "Play")
            let button = try app.element(named: "Main menu")
            try desktop.key("F10")
            try app.waitForElement("the main menu's items") { $0.role == "menu item" && $0.name == "Media Information" }
            // The popover is a surface of its own, whose items GTK places relative to it: the
            // menu is judged on screen, below its button, over what is otherwise red picture
            // (below the header bar, above the controls).
            func menuDrawn(_ name: String) throws -> Bool {
                let shot = try desktop.screenshot(name)
                return try ScreenImage.average(shot, x: button.x - 60, y: button.y + button.height + 60, width: 60,
                                               height: 80).distance(to: .init(r: 255, g: 0, b: 0)) > 60
            }
            try Desktop.wait("the menu drawn below its button", log: app.log) { try menuDrawn("menu") }
            // All of it on the output: at the output's right edge, beside the menu, the picture
            // (Weston does not slide a popover that runs off the output back onto it).
            let shot = try desktop.screenshot("menu-edge")
            let edge = try ScreenImage.average(shot, x: compositor.output.width - 4, y: button.y + button.height + 60,
                                               width: 3, height: 80)
            #expect(edge.distance(to: .init(r: 255, g: 0, b: 0)) < 60, "the menu runs to the output's edge: \(edge) there")
            try desktop.key("Escape")
            try Desktop.wait("the menu gone from the picture", log: app.log) { try !menuDrawn("menu-closed") }
        }
    }

    @Test("F makes the window take the whole output; Escape gives it its own size back")
    func fullscreen() throws {
        let output = (width: 1024, height: 576)
        try Self.onCompositor(arguments: [try Fixtures.path(.solidRed)], output: output, shell: .desktop) { desktop, _, app in
            try app.element(named: "Pause")
            func frame() throws -> AccessibleNode? { try app.accessibleTree().first { $0.role == "frame" } }
            let before = try #require(try frame())
            #expect(before.width < output.width, "the window filled the output before F: \(before)")
            try desktop.key("f")
            var last: AccessibleNode?
            do {
                try Desktop.wait("the window on the whole output", log: app.log) {
                    last = try frame()
                    return last.map { $0.width == output.width && $0.height == output.height } ?? false
                }
            } catch {
                Issue.record("the window after F: \(String(describing: last))")
                throw error
            }
            try desktop.key("Escape")
            try Desktop.wait("the window at its own size again", log: app.log) { (try frame()?.width ?? output.width) < output.width }
        }
    }

    @Test("A video dragged from another program's window and dropped on the empty window plays")
    func dropAFile() throws {
        try Self.onCompositor(arguments: [], shell: .desktop) { desktop, compositor, app in
            let film = desktop.home.appendingPathComponent("dropped film.mp4").path
            try FileManager.default.copyItem(atPath: try Fixtures.path(.longSmall), toPath: film)
            // Weston places windows where it likes: each is found on the output by colour,
            // Reel's (alone at first) as what differs from the plain background.
            try app.element(named: "Open a Video")
            var window: ScreenImage.Box?
            try Desktop.wait("Reel's window on the output", log: app.log) {
                window = try ScreenImage.bounds(try desktop.screenshot("reel-alone"), of: WestonCompositor.background.hex,
                                                matching: false, within: compositor.output)
                return window.map { $0.width > 400 && $0.height > 300 } ?? false
            }
            let reel = try #require(window)
            let source = try DragSource(on: desktop, compositor: compositor, offering: [film])
            defer { source.stop() }
            let covered = try #require(try source.onScreen())
            // A point well inside Reel's window that the drag source does not cover.
            let points = [(2, 2), (1, 1), (3, 1), (1, 3), (3, 3), (2, 1), (2, 3), (1, 2), (3, 2)]
                .map { (reel.x + reel.width * $0.0 / 4, reel.y + reel.height * $0.1 / 4) }
            let target = try #require(points.first { !covered.contains($0.0, $0.1) }, "the drag source \(covered) covers Reel's window \(reel)")
            try source.drag(to: target.0, target.1)
            try Desktop.wait("the dropped film playing", log: app.log) { app.title.contains("dropped film") }
            try app.element(named: "Pause")
        }
    }
}
