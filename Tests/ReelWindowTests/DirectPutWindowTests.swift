import Foundation
import ReelTestSupport
import Testing

/// The CPU path on X11 puts pictures straight into the window (MIT-SHM) while nothing is drawn
/// over them, and hands them back to GTK's drawing when something is: seen in `--report`'s
/// counts and on the X server's screen. The oracle for "the current picture" is the clip's own
/// colour change (red, then green from 1.5 s): whatever comes over the picture must be drawn
/// over green, never over a red (or black) left from GTK's last drawing of the widget.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Pictures put straight into the X11 window", .serialized)
struct DirectPutWindowTests {
    static let green = ScreenImage.Color(r: 0, g: 255, b: 0)
    static let blue = ScreenImage.Color(r: 0, g: 0, b: 255)

    /// 1 s of red, then green to 6 s, with a blue band down the left tenth (where a picture
    /// put out of place shows), 640×360 (the window opens 1:1), with sound.
    static let redThenGreen = Fixtures.Spec(name: "red-then-lime-banded", ext: "mp4", arguments: [
        "-f", "lavfi", "-i", "color=c=red:s=640x360:r=30:d=6,drawbox=x=0:y=0:w=iw:h=ih:color=0x00ff00:t=fill:enable='gte(t,1)',"
            + "drawbox=x=0:y=0:w=64:h=ih:color=0x0000ff:t=fill",
        "-f", "lavfi", "-i", "sine=frequency=330:sample_rate=48000:duration=6",
        "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-g", "30",
        "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k", "-shortest",
    ])

    /// Reel drawing the clip on the CPU path, the controls fading half a second after they show.
    static func playing(on desktop: Desktop) throws -> ControlsTests.Session {
        try ControlsTests.Session(on: desktop, clip: redThenGreen, settings: ["controls-display-duration=0.5"],
                                  environment: ["REEL_VIDEO_OUTPUT": "software"])
    }

    @Test("While nothing is over the picture it is put into the window; switched off, every picture goes through GTK")
    func putWhileNothingIsOver() throws {
        try SharedDesktop.standard.use { desktop in
            try desktop.writeSettings(["remember-queue=false"])
            let clip = try Fixtures.path(.longSmall)
            let on = try desktop.run([ReelApp.binary, "--report", "--exit-after", "3", clip], extra: ["REEL_VIDEO_OUTPUT": "software"])
            let said = try #require(DrawingPathTests.reported(on.output, "video_output").first, "\(on.output)")
            #expect(said["path"] as? String == "software", "\(said)")
            #expect(said["direct_put"] as? Bool == true, "\(said)")
            let summary = try #require(DrawingPathTests.reported(on.output, "summary").last, "\(on.output)")
            let drawn = try #require(summary["frames_drawn"] as? Int), put = try #require(summary["pictures_put_directly"] as? Int)
            // Three seconds of a 30 fps clip with the pointer away: nearly every picture put.
            #expect(drawn >= 30, "\(summary)")
            #expect(put >= drawn / 2 && put <= drawn + 1, "\(put) put of \(drawn) drawn: \(summary)")

            let off = try desktop.run([ReelApp.binary, "--report", "--exit-after", "3", clip],
                                      extra: ["REEL_VIDEO_OUTPUT": "software", "REEL_X11_DIRECT_PUT": "0"])
            let saidOff = try #require(DrawingPathTests.reported(off.output, "video_output").first, "\(off.output)")
            #expect(saidOff["direct_put"] as? Bool == false, "\(saidOff)")
            #expect((saidOff["direct_put_reason"] as? String)?.contains("REEL_X11_DIRECT_PUT") == true, "\(saidOff)")
            let summaryOff = try #require(DrawingPathTests.reported(off.output, "summary").last, "\(off.output)")
            #expect((summaryOff["frames_drawn"] as? Int ?? 0) >= 30, "\(summaryOff)")
            #expect(summaryOff["pictures_put_directly"] as? Int == 0, "\(summaryOff)")
        }
    }

    @Test("The header bar and the controls that a pause and the end bring are drawn over the current picture, not GTK's last one")
    func overlaysOverTheCurrentPicture() throws {
        try SharedDesktop.standard.use { desktop in
            let session = try Self.playing(on: desktop)
            let (app, movie) = (session.app, session.movie)
            // The top strip, where the header bar lies when shown, and the middle.
            func strip(_ shot: String) throws -> ScreenImage.Color {
                try ScreenImage.average(shot, x: movie.x + movie.width / 4, y: movie.y + 2, width: 40, height: 6)
            }
            func middle(_ shot: String) throws -> ScreenImage.Color {
                try ScreenImage.average(shot, x: movie.x + movie.width / 2 - 20, y: movie.y + movie.height / 2 - 20, width: 40, height: 40)
            }
            var seen: [String: ScreenImage.Color] = [:]
            func greenAlone(_ name: String) throws {
                try Desktop.wait("green with nothing over it (\(name))", log: app.log) {
                    let shot = try desktop.screenshot(name)
                    seen["strip"] = try strip(shot)
                    seen["middle"] = try middle(shot)
                    return seen.values.allSatisfy { $0.distance(to: Self.green) < 40 }
                }
            }
            // Shaded (darker than the picture), and green under the shade: not the red or the
            // black GTK last drew in the widget before pictures were put.
            func shadeOverGreen(_ name: String) throws {
                try Desktop.wait("the header bar's shade over green (\(name))", log: app.log) {
                    let shot = try desktop.screenshot(name)
                    seen["strip"] = try strip(shot)
                    seen["middle"] = try middle(shot)
                    guard let shade = seen["strip"], let picture = seen["middle"] else { return false }
                    return picture.distance(to: Self.green) < 40 && shade.g < 235 && shade.g > 60 && shade.g > shade.r + 40
                }
            }
            do {
                try greenAlone("green-alone")
                // Space pauses, which shows the controls and the header bar with the pointer
                // still: nothing new is decoded, and nothing moved the pointer.
                try desktop.key("space")
                try app.element(named: "Play")
                try shadeOverGreen("paused")
                try desktop.key("space")
                try greenAlone("playing-again")
                // The end shows them too (from the movie's own tick).
                try Desktop.wait("the end", log: app.log, timeout: 30) { (try? app.element(named: "Play", timeout: 1)) != nil }
                try shadeOverGreen("ended")
            } catch {
                Issue.record("seen: \(seen)")
                throw error
            }
        }
    }

    @Test("Put pictures follow the window into fullscreen, over the whole screen, and back")
    func followsFullscreen() throws {
        try SharedDesktop.standard.use { desktop in
            let session = try Self.playing(on: desktop)
            let app = session.app
            let (blue, movie) = (Self.blue, session.movie)
            try Desktop.wait("green in the window, the band at its left edge", log: app.log) {
                let shot = try desktop.screenshot("windowed")
                func at(_ x: Int) throws -> ScreenImage.Color {
                    try ScreenImage.average(shot, x: movie.x + x, y: movie.y + movie.height / 2 - 10, width: 10, height: 20)
                }
                return try at(2).distance(to: blue) < 40 && at(50).distance(to: blue) < 40
                    && at(74).distance(to: Self.green) < 40 && at(movie.width / 2).distance(to: Self.green) < 40
            }
            try desktop.key("f")
            try Desktop.wait("the picture across the screen, letterboxed", log: app.log) { try Self.fillsScreen(desktop, "fullscreen") }
            try desktop.key("Escape")
            try Desktop.wait("the picture back at the window's size, the screen's edges clear", log: app.log) {
                let shot = try desktop.screenshot("unfullscreen")
                return try ScreenImage.average(shot, x: desktop.width - 44, y: desktop.height / 2 - 20, width: 40, height: 40)
                    .distance(to: Self.green) > 100
            }
        }
    }

    /// The clip fullscreen on the 1280×800 screen: 16:9 is 1280×720 with black bars of 40 above
    /// and below, the blue band from the left edge to 128 and green right of it.
    static func fillsScreen(_ desktop: Desktop, _ name: String) throws -> Bool {
        let shot = try desktop.screenshot(name)
        func at(_ x: Int) throws -> ScreenImage.Color {
            try ScreenImage.average(shot, x: x, y: desktop.height / 2 - 20, width: 20, height: 40)
        }
        let edges = try at(4).distance(to: blue) < 40 && at(100).distance(to: blue) < 40
            && at(140).distance(to: green) < 40 && at(desktop.width - 24).distance(to: green) < 40
        let bars = try [4, desktop.height - 36].allSatisfy { y in
            try ScreenImage.average(shot, x: desktop.width / 2 - 20, y: y, width: 40, height: 30)
                .distance(to: ScreenImage.Color(r: 0, g: 0, b: 0)) < 30
        }
        return edges && bars
    }

    @Test("On a composited screen a window of its own size keeps GTK's drawing (its corners see-through); fullscreen takes puts, opaque")
    func composited() throws {
        let desktop = try Desktop()
        defer { desktop.stop() }
        try desktop.writeSettings(["remember-queue=false"])
        let compositor = try Command.spawnDetached(["xcompmgr"], environment: desktop.environment,
                                                   log: desktop.home.appendingPathComponent("xcompmgr.log").path)
        Reaper.watch([compositor])
        defer { kill(compositor, SIGTERM) }
        // A compositing manager owns the screen's _NET_WM_CM_S0 selection (GDK asks the same).
        let owned = """
            import ctypes, sys
            x = ctypes.cdll.LoadLibrary("libX11.so.6")
            x.XOpenDisplay.restype = ctypes.c_void_p
            x.XInternAtom.restype = ctypes.c_ulong
            x.XGetSelectionOwner.restype = ctypes.c_ulong
            d = ctypes.c_void_p(x.XOpenDisplay(None))
            sys.exit(0 if x.XGetSelectionOwner(d, ctypes.c_ulong(x.XInternAtom(d, b"_NET_WM_CM_S0", 0))) else 1)
            """
        try Desktop.wait("xcompmgr compositing the screen") {
            (try? desktop.run(["python3", "-c", owned], check: false).status) == 0
        }
        let clip = try Fixtures.path(Self.redThenGreen)
        func summary(_ extra: [String]) throws -> [String: Any] {
            let run = try desktop.run([ReelApp.binary, "--report", "--exit-after", "3"] + extra + [clip],
                                      extra: ["REEL_VIDEO_OUTPUT": "software"])
            return try #require(DrawingPathTests.reported(run.output, "summary").last, "\(run.output)")
        }
        let windowed = try summary([])
        #expect((windowed["frames_drawn"] as? Int ?? 0) >= 30, "\(windowed)")
        #expect(windowed["pictures_put_directly"] as? Int == 0, "\(windowed)")
        let full = try summary(["--fullscreen"])
        let drawn = full["frames_drawn"] as? Int ?? 0, put = full["pictures_put_directly"] as? Int ?? 0
        #expect(drawn >= 30 && put >= drawn / 2, "\(full)")

        // Through the compositor, put pictures are opaque where they are drawn (the window's
        // pixels carry alpha there).
        let app = try ReelApp(on: desktop, arguments: ["--fullscreen", clip], environment: ["REEL_VIDEO_OUTPUT": "software"])
        defer { app.stop() }
        try Desktop.wait("the picture across the composited screen", log: app.log) { try Self.fillsScreen(desktop, "composited") }
    }
}
