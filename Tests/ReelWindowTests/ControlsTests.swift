import Foundation
import ReelTestSupport
import Testing

/// The controls as a person uses them: the real window under Xvfb, driven by real pointer and
/// key events, judged from screenshots and the accessibility tree. One at a time: timing of
/// show/hide matters and the machine is small. The tests take turns on one desktop, each from
/// a clean slate (no settings or saved state of the turn before, the pointer at the centre).
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Controls in the window", .serialized)
struct ControlsTests {
    static let desktops = SharedDesktop.standard

    /// A setting for turns that read the billboard: it stays 30 s instead of 1.2. One read of
    /// the accessibility tree can take longer than 1.2 s on a busy machine, and a message gone
    /// before it is read is a timeout that says nothing about Reel.
    static let readableMessages = "message-display-duration=30.0"

    /// Reel playing the solid red clip; anything on screen that is not red is Reel's.
    struct Session {
        let desktop: Desktop
        let app: ReelApp
        let movie: AccessibleNode

        /// `settings`: lines of Reel's settings keyfile group, written before the launch.
        init(on desktop: Desktop, arguments: [String] = [], clip: Fixtures.Spec = .solidRed,
             settings: [String] = [], environment: [String: String] = [:]) throws {
            self.desktop = desktop
            if !settings.isEmpty { try desktop.writeSettings(settings) }
            app = try ReelApp(on: desktop, arguments: arguments + [try Fixtures.path(clip)], environment: environment)
            // The picture, from the read that finds the clip loaded (autoplay: playing).
            let playButton = arguments.contains("--paused") ? "Play" : "Pause"
            let tree = try app.waitForTree("the picture and the \(playButton) button") { tree in
                tree.contains { $0.name == "Video" } && tree.contains { $0.name == playButton }
            }
            movie = tree.first { $0.name == "Video" }!
        }

        /// The strip where the controls bar appears, inside the picture.
        func barColor(_ name: String) throws -> ScreenImage.Color {
            let shot = try desktop.screenshot(name)
            return try ScreenImage.average(shot, x: movie.x + movie.width / 4, y: movie.y + movie.height - 40,
                                           width: movie.width / 2, height: 20)
        }

        func controlsShown(_ name: String) throws -> Bool {
            try barColor(name).distance(to: .init(r: 255, g: 0, b: 0)) > 60
        }

        /// The elapsed time label's text, in seconds (hidden controls keep it up to date too).
        func elapsed() throws -> Double? {
            let labels = try app.accessibleTree().filter { node in
                node.role == "label" && node.name.range(of: #"^-?\d+(:\d\d)+$"#, options: .regularExpression) != nil
            }
            guard let first = labels.min(by: { $0.x < $1.x }) else { return nil }
            let parts = first.name.split(separator: ":").compactMap { Double($0) }
            return parts.reduce(0) { $0 * 60 + $1 }
        }
    }

    @Test("Hidden at launch; pointer motion shows them; they fade without input; not while the pointer is on them")
    func motionAndFade() throws {
        // The preference at a second instead of its default 2 s (the policy's default and its
        // timing are ControlsVisibilityTests'): the fade is waited out here, and a second still
        // leaves a screenshot time to see them up.
        let display = 1.0
        try Self.desktops.use { desktop in
            let s = try Session(on: desktop, settings: ["controls-display-duration=\(display)"])
            #expect(try !s.controlsShown("launch"), "controls showed without any input")
            try s.desktop.glide(to: s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height / 3)
            try Desktop.wait("the controls to show", timeout: 5) { try s.controlsShown("shown") }
            try Desktop.wait("the controls to fade", timeout: 10) { try !s.controlsShown("faded") }
            // Over the controls they stay. Not hiding can only be seen by waiting: 2.5 display
            // durations past the last motion, at the shortest duration the preference takes
            // (nothing here has to see them up before they would fade, and a fade takes 0.25 s).
            let shortest = 0.5
            _ = try PreferencesWindowTests.gsettings(desktop, ["set", "io.github.reel.Reel", "controls-display-duration", "\(shortest)"])
            try s.desktop.glide(to: s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height - 30)
            try Desktop.wait("the controls to show", timeout: 5) { try s.controlsShown("over") }
            usleep(UInt32(shortest * 2.5 * 1_000_000))
            #expect(try s.controlsShown("still-over"), "the controls hid under the pointer")
        }
    }

    @Test("A tap on the picture shows them, another hides them")
    func tap() throws {
        try Self.desktops.use { desktop in
            let s = try Session(on: desktop)
            let x = s.movie.x + s.movie.width / 2, y = s.movie.y + s.movie.height / 3
            try s.desktop.moveMouse(x, y)
            usleep(300_000)
            try s.desktop.click(x, y)
            try Desktop.wait("the tap to show them", timeout: 5) { try s.controlsShown("tap1") }
            try s.desktop.click(x, y)
            try Desktop.wait("the tap to hide them", timeout: 5) { try !s.controlsShown("tap2") }
        }
    }

    @Test("Double click goes fullscreen, Escape leaves it")
    func fullscreen() throws {
        try Self.desktops.use { desktop in
            let s = try Session(on: desktop)
            try s.desktop.click(s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height / 2, times: 2)
            try Desktop.wait("fullscreen", timeout: 10) {
                let g = try s.app.geometry()
                return g.width == s.desktop.width && g.height == s.desktop.height
            }
            try s.desktop.key("Escape")
            try Desktop.wait("a window again", timeout: 10) { try s.app.geometry().width < s.desktop.width }
        }
    }

    @Test("Keys: Space pauses and plays, arrows seek, ↓ and M change the sound and say so over the picture, F goes fullscreen, Escape leaves it, Ctrl+W closes")
    func keys() throws {
        try Self.desktops.use { desktop in
            // Messages over the picture stay while the tree is read (their going is `messagesGo`).
            let s = try Session(on: desktop, settings: ["message-display-duration=30.0"])
            try s.desktop.click(s.movie.x + 5, s.movie.y + 5)   // focus the window
            try s.desktop.key("space")
            try s.app.element(named: "Play")
            // From the start, so that → cannot reach the end of the 10 s clip however long the
            // app took to come up (play at the end would restart, and the check below would race).
            try s.desktop.key("Home")
            try Desktop.wait("Home to go to the start", timeout: 10) { try s.elapsed().map { $0 < 0.5 } ?? false }
            try s.desktop.key("Right")
            try Desktop.wait("the seek to show in the elapsed time", timeout: 10) {
                guard let now = try s.elapsed() else { return false }
                return abs(now - 5) <= 1
            }
            // The volume, stepped by a key, shows over the picture a moment, and goes.
            try s.desktop.key("Down")
            try s.app.waitForElement("the billboard with the volume") { $0.name == "Volume 95 %" && $0.role == "label" }
            try s.desktop.key("m")
            try s.app.waitForElement("the volume button saying so") { $0.name == "Volume, muted" }
            try s.app.waitForElement("the billboard saying so") { $0.name == "Muted" && $0.role == "label" }
            try s.desktop.key("k")
            try s.app.element(named: "Pause")
            try s.desktop.key("f")
            try Desktop.wait("fullscreen", timeout: 10) { try s.app.geometry().width == s.desktop.width }
            try s.desktop.key("Escape")
            try Desktop.wait("fullscreen to end", timeout: 10) { try s.app.geometry().width < s.desktop.width }
            try s.desktop.key("ctrl+w")
            try Desktop.wait("the window to close and Reel to quit", timeout: 10) { !s.app.isRunning }
        }
    }

    @Test("A message over the picture goes by itself")
    func messagesGo() throws {
        try Self.desktops.use { desktop in
            let s = try Session(on: desktop, settings: ["message-display-duration=0.5"])
            try s.desktop.click(s.movie.x + 5, s.movie.y + 5)   // focus the window
            try s.desktop.key("Down")
            // The key was taken (the desktop's remote reads 95 %), and whether or not the message
            // was seen meanwhile, it is gone; the same key with a long duration shows it (`keys`).
            try Desktop.wait("the volume at 95 %", log: s.app.log) {
                abs((Double(try MPRISTests.playerctl(s.desktop, ["volume"])) ?? -1) - 0.95) < 0.001
            }
            try Desktop.wait("the message to go", timeout: 10) {
                try !s.app.accessibleTree().contains { $0.role == "label" && $0.name.hasPrefix("Volume") }
            }
        }
    }

    @Test("A click anywhere on the scrubber jumps there; a drag seeks and playing resumes")
    func scrubber() throws {
        try Self.desktops.use { desktop in
            let s = try Session(on: desktop)
            try s.desktop.glide(to: s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height - 30)
            try Desktop.wait("the controls to show", timeout: 5) { try s.controlsShown("scrubber") }
            let bar = try s.app.element(named: "Position", role: "slider")
            // Drag from a quarter to the middle: the picture follows, and play goes on after.
            let y = bar.y + bar.height / 2
            try s.desktop.xdotool(["mousemove", String(bar.x + bar.width / 4), String(y), "mousedown", "1"])
            for step in 1...8 {
                try s.desktop.moveMouse(bar.x + bar.width / 4 + step * bar.width / 32, y)
                usleep(60_000)
            }
            try s.app.element(named: "Play")   // paused while held
            try s.desktop.xdotool(["mouseup", "1"])
            let released = Date()
            try s.app.element(named: "Pause")  // playing again
            let dragged = try #require(try s.elapsed())
            // Released at 5 s, then playing while the window was read, which takes seconds on a
            // busy machine: the bound follows the time that actually passed (plus a second for the
            // label's whole seconds and half a second for the app to see the release).
            let played = Date().timeIntervalSince(released)
            #expect(dragged >= 4 && dragged <= 5 + played + 1.5,
                    "after dragging to the middle and \(played) s of playing, the time reads \(dragged)")
            // Paused, a click at three quarters jumps to 7.5 s of 10 and stays there (reaching for
            // the scrubber shows the controls first, as it does for a person).
            try s.desktop.key("space")
            try s.app.element(named: "Play")
            try s.desktop.glide(to: bar.x + bar.width * 3 / 4, y)
            try Desktop.wait("the controls to show", timeout: 5) { try s.controlsShown("before-click") }
            try s.desktop.click(bar.x + bar.width * 3 / 4, y)
            var seen: [Double] = []
            do {
                try Desktop.wait("the jump", timeout: 10) {
                    guard let t = try s.elapsed() else { return false }
                    seen.append(t)
                    return t >= 7 && t < 8
                }
            } catch {
                Issue.record("after clicking at 3/4 of \(bar) the elapsed time read \(seen)")
                throw error
            }
            #expect(try s.app.accessibleTree().contains { $0.name == "Play" }, "a click while paused started playing")
        }
    }

    @Test("Fast forward held scans ahead at rising speed and plays on from there; a click on rewind skips back 10 s")
    func holdToScan() throws {
        try Self.desktops.use { desktop in
            let s = try Session(on: desktop, arguments: ["--start", "10"], clip: .longSmall)
            let forward = try s.app.element(named: "Fast forward")
            let x = forward.x + forward.width / 2, y = forward.y + forward.height / 2
            try s.desktop.glide(to: x, y)
            usleep(500_000)
            let before = try #require(try s.elapsed())
            let read = Date()
            // Held at least 2.2 s: 2× for the first second and 4× for the next, about 6 s beyond
            // real time instead of the 2 s that playing alone would cover. Reading the window
            // takes seconds on a busy machine, so the hold and the playing around it are timed.
            try s.desktop.xdotool(["mousedown", "1"])
            let down = Date()
            usleep(1_200_000)
            try s.app.element(named: "Play")   // scanning pauses normal play
            usleep(1_000_000)
            try s.desktop.xdotool(["mouseup", "1"])
            let held = Date().timeIntervalSince(down)
            try s.app.element(named: "Pause")  // released: playing again
            let after = try #require(try s.elapsed())
            let playing = Date().timeIntervalSince(read) - held
            // The scan's reach for the time held: 2 s per second, doubling each second up to 16;
            // the app may see the release up to half a second after it was sent on a busy machine.
            var reach = 0.0, rate = 2.0, left = held + 0.5
            while left > 0 { reach += rate * min(left, 1); left -= 1; rate = min(rate * 2, 16) }
            #expect(after - before >= 5, "held fast forward (\(held) s) moved from \(before) to \(after) s")
            // Plus the playing before and after the hold, and a second for the labels' whole seconds.
            #expect(after - before <= reach + playing + 1.5,
                    "held \(held) s (reach \(reach) s) and played \(playing) s, yet moved from \(before) to \(after) s")
            // A quick click on rewind is a 10 s skip back. Paused first, so the time the skip starts
            // from is the one read here: reading the accessibility tree can take seconds on a busy
            // machine, and playing would move on meanwhile.
            try s.desktop.key("k")
            try s.app.element(named: "Play")
            let rewind = try s.app.element(named: "Rewind")
            let from = try #require(try s.elapsed())
            try s.desktop.click(rewind.x + rewind.width / 2, rewind.y + rewind.height / 2)
            var seen: [Double] = []
            do {
                try Desktop.wait("the skip back", timeout: 10) {
                    guard let t = try s.elapsed() else { return false }
                    seen.append(t)
                    return t <= from - 9 && t >= from - 11
                }
            } catch {
                Issue.record("after clicking rewind at \(from) s the elapsed time read \(seen)")
                throw error
            }
            try s.app.element(named: "Play")   // a skip does not start or stop play
        }
    }

    @Test("While video plays the screensaver is held off; pausing lets it back, playing again holds it off")
    func inhibitsScreensaver() throws {
        let desktop = try Desktop()
        let sessionManager = try SessionManagerStandIn(on: desktop)
        let app = try ReelApp(on: desktop, arguments: [try Fixtures.path(.longSmall)])
        try app.element(named: "Pause")
        let idle: UInt32 = 8   // GTK_APPLICATION_INHIBIT_IDLE
        try Desktop.wait("an idle inhibition while playing", timeout: 10) { sessionManager.held().count == 1 }
        #expect(sessionManager.calls().allSatisfy { $0.method != "Inhibit" || $0.flags == idle },
                "inhibited more than idleness: \(sessionManager.calls())")
        let movie = try app.element(named: "Video")
        try desktop.click(movie.x + 5, movie.y + 5)
        try desktop.key("space")
        try app.element(named: "Play")
        try Desktop.wait("the inhibition released on pause", timeout: 10) { sessionManager.held().isEmpty }
        try desktop.key("space")
        try app.element(named: "Pause")
        try Desktop.wait("held off again on play", timeout: 10) { sessionManager.held().count == 1 }
        #expect(sessionManager.calls().count == 3, "calls: \(sessionManager.calls())")
    }

    @Test("Speed: ] and [ step it (and say so over the picture), Backspace returns to normal; the time remaining follows it")
    func speed() throws {
        try Self.desktops.use { desktop in
            // Remaining time rounds up: a duration a hair over 60 s can read one second more.
            let s = try Session(on: desktop, arguments: ["--paused"], clip: .longSmall, settings: ["message-display-duration=30.0"])
            try s.desktop.glide(to: s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height - 30)
            try s.app.click(try s.app.element(named: "Total time"))
            try s.app.waitForElement("a minute remaining") { $0.role == "label" && $0.name == "-1:00" }
            try s.desktop.key("bracketright")   // 1.25×: the minute takes 48 s
            try s.app.waitForElement("the billboard with the speed") { $0.role == "label" && $0.name == "Speed 1.25×" }
            try s.app.waitForElement("48 s remaining at 1.25×") { $0.role == "label" && ["-0:48", "-0:49"].contains($0.name) }
            try s.desktop.key("bracketleft")   // 1×
            try s.app.waitForElement("a minute remaining at 1×") { $0.role == "label" && $0.name == "-1:00" }
            try s.desktop.key("bracketleft")   // 0.75×: 80 s
            try s.app.waitForElement("1:20 remaining at 0.75×") { $0.role == "label" && ["-1:20", "-1:21"].contains($0.name) }
            try s.desktop.key("bracketright", "bracketright", "bracketright", "bracketright", "bracketright")   // 2×
            try s.app.waitForElement("30 s remaining at 2×") { $0.role == "label" && ["-0:30", "-0:31"].contains($0.name) }
            try s.desktop.key("BackSpace")
            try s.app.waitForElement("normal speed, the full minute remaining") { $0.role == "label" && $0.name == "-1:00" }
            try s.app.waitForElement("the billboard saying so") { $0.role == "label" && $0.name == "Normal speed" }
        }
    }

    @Test("Holding → scans forward at rising speed; releasing plays on from there")
    func heldArrow() throws {
        try Self.desktops.use { desktop in
            let s = try Session(on: desktop, arguments: ["--start", "5"], clip: .longSmall)
            try s.desktop.click(s.movie.x + 5, s.movie.y + 5)
            try s.desktop.click(s.movie.x + 5, s.movie.y + 5)   // a second tap hides the controls again
            let before = try #require(try s.elapsed())
            try s.desktop.xdotool(["keydown", "Right"])
            usleep(2_600_000)
            try s.desktop.xdotool(["keyup", "Right"])
            try s.app.element(named: "Pause")   // playing on
            let read = Date()
            let after = try #require(try s.elapsed())
            // One 5 s step, then 2 s of scanning (2× then 4×: about 4 s more).
            #expect(after - before >= 9, "holding → moved from \(before) to \(after) s")
            // Released, it plays on at normal speed instead of scanning: the film moves no further
            // than the wall clock (less on a busy machine), where a scan moves it at least twice as
            // far. The labels count whole seconds, hence one more. (How far the scan got before
            // the release cannot be bounded from here: the app sees the key go up when it gets to
            // it, later on a busy machine, and scans until then.)
            var later = after
            try Desktop.wait("the film playing on after the release", log: s.app.log) {
                later = try s.elapsed() ?? later
                return later >= after + 2
            }
            let span = Date().timeIntervalSince(read)
            #expect(later - after <= span + 1, "after the release the film moved \(later - after) s in \(span) s: still scanning")
        }
    }

    @Test("The info card shows in the auxiliary slot and goes away")
    func infoCard() throws {
        try Self.desktops.use { desktop in
            let s = try Session(on: desktop)
            try s.desktop.click(s.movie.x + 5, s.movie.y + 5)
            try s.desktop.key("i")
            let card = try s.app.element(named: "Media information")
            #expect(card.x >= s.movie.x && card.y >= s.movie.y, "the card is outside the picture: \(card)")
            let shot = try s.desktop.screenshot("card")
            let color = try ScreenImage.average(shot, x: card.x + 4, y: card.y + 4, width: card.width / 2, height: card.height / 2)
            #expect(color.distance(to: .init(r: 255, g: 0, b: 0)) > 60, "the card is not drawn: \(color)")
            try s.desktop.key("i")
            try Desktop.wait("the card to go", timeout: 5) {
                !(try s.app.accessibleTree().contains { $0.name == "Media information" && $0.isShowing })
            }
        }
    }
}
