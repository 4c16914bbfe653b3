import Foundation
import ReelTestSupport
import Testing

/// The A-B loop as a person meets it: Shift+L sets the start, then the end, then clears, and
/// the billboard says each; the span shows on the scrubber as a yellow band (read from
/// screenshots); playback goes back to the start (the elapsed time, from the accessibility
/// tree); the menus' item does the same and names what it does next; the desktop's remote
/// keeps the queue's loop status.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("A-B loop in the window", .serialized)
struct ABLoopWindowTests {
    /// The scrubber's pixels in the loop band's yellow: how many, and the leftmost and
    /// rightmost column where they lie (screen coordinates).
    struct Yellow: CustomStringConvertible {
        let count: Int
        let left: Int?
        let right: Int?
        var description: String { "\(count) yellow pixels, from x \(left.map(String.init) ?? "-") to \(right.map(String.init) ?? "-")" }
    }

    /// Reads the yellow pixels of `bar` (the scrubber's node) in a screenshot.
    static func yellow(_ s: ControlsTests.Session, bar: AccessibleNode, _ name: String) throws -> Yellow {
        let shot = try s.desktop.screenshot(name)
        // One pixel a line: "x,y: (r,g,b...)". Yellow: much red and green, little blue (the
        // picture under the bar is pure red, the played part and the cache are white or grey).
        let text = try Command.run(["convert", shot, "-crop", "\(bar.width)x\(bar.height)+\(bar.x)+\(bar.y)", "+repage",
                                    "-depth", "8", "txt:-"]).output
        var count = 0, left: Int?, right: Int?
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let comma = line.firstIndex(of: ","), let x = Int(line[..<comma]),
                  let open = line.firstIndex(of: "("), let close = line[open...].firstIndex(of: ")") else { continue }
            let v = line[line.index(after: open)..<close].split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard v.count >= 3, v[0] > 150, v[1] > 130, v[2] < 110, v[0] - v[1] < 90 else { continue }
            count += 1
            left = min(left ?? x, x)
            right = max(right ?? x, x)
        }
        return Yellow(count: count, left: left.map { $0 + bar.x }, right: right.map { $0 + bar.x })
    }

    /// Brings the controls up (pointer motion over the picture) and waits for them.
    static func showControls(_ s: ControlsTests.Session, _ name: String) throws {
        let x = s.movie.x + s.movie.width / 2, y = s.movie.y + s.movie.height / 3
        try s.desktop.glide(to: x + Int.random(in: -40...40), y + Int.random(in: -20...20))
        try Desktop.wait("the controls to show", timeout: 5) { try s.controlsShown(name) }
    }

    static func loopStatus(_ s: ControlsTests.Session) throws -> String {
        try MPRISTests.playerctl(s.desktop, ["loop"])
    }

    @Test("Shift+L: the start, then the end with the band on the scrubber and playback going back; the end dragged; then cleared; MPRIS LoopStatus stays the queue's")
    func key() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try ControlsTests.Session(on: desktop, settings: ["message-display-duration=30.0",
                                                                      "controls-display-duration=30.0"])
            try s.desktop.click(s.movie.x + 5, s.movie.y + 5)   // focus the window
            try Desktop.wait("the remote to see Reel") { try Self.loopStatus(s) == "None" }
            try Desktop.wait("playing past a second", timeout: 20) { try s.elapsed().map { $0 >= 1 } ?? false }
            try s.desktop.key("shift+l")
            let startSaid = try s.app.waitForElement("the billboard with the loop's start") { $0.role == "label" && $0.name.hasPrefix("Loop start ") }
            // The start's whole seconds, as the billboard says them ("Loop start 0:01").
            let startSeconds = try #require(Double(startSaid.name.split(separator: ":").last ?? ""), "\(startSaid.name)")
            try Self.showControls(s, "loop-start")
            let bar = try s.app.element(named: "Position", role: "slider")
            let mark = try Self.yellow(s, bar: bar, "loop-start")
            #expect(mark.count > 0 && (mark.right ?? 0) - (mark.left ?? 0) < 8, "the start's mark: \(mark)")

            let start = try #require(try s.elapsed())
            try Desktop.wait("playing two seconds on", timeout: 20) { try s.elapsed().map { $0 >= start + 2 } ?? false }
            try s.desktop.key("shift+l")
            let said = try s.app.waitForElement("the billboard with the loop") { $0.role == "label" && $0.name.hasPrefix("Loop ") && $0.name.contains("–") }
            try Self.showControls(s, "loop-span")
            let band = try Self.yellow(s, bar: bar, "loop-span")
            // Two seconds or more of the ten-second clip: a tenth or more of the trough's width.
            #expect((band.right ?? 0) - (band.left ?? 0) >= bar.width / 12, "the span's band (\(said.name)): \(band)")
            if let left = band.left, let markLeft = mark.left { #expect(abs(left - markLeft - 1) <= 4, "the band starts at \(left), the mark was at \(markLeft)") }
            #expect(try Self.loopStatus(s) == "None", "the remote's loop status changed with the A-B loop")

            // Back to the start: the elapsed time goes down while playing.
            var seen = [try s.elapsed() ?? 0]
            do {
                try Desktop.wait("playback to go back to the loop's start", timeout: 20) {
                    guard let now = try s.elapsed() else { return false }
                    defer { seen.append(now) }
                    return now < seen.last!
                }
            } catch {
                Issue.record("the elapsed time read \(seen) (\(said.name))")
                throw error
            }
            try s.app.element(named: "Pause")   // still playing
            // The remote sees it too: MPRIS's position goes back to the loop's start, and
            // never before it.
            var positions: [Double] = []
            try Desktop.wait("the remote's position to go back to the loop's start", timeout: 20) {
                guard let now = Double(try MPRISTests.playerctl(s.desktop, ["position"])) else { return false }
                defer { positions.append(now) }
                return positions.last.map { now < $0 } ?? false
            }
            #expect(positions.last! >= startSeconds && positions.last! < startSeconds + 1.05,
                    "the remote's position went back to \(positions.last!), the loop starts at \(startSaid.name): \(positions)")

            // The end dragged forty pixels on: the band follows (the player's loop, drawn).
            try Self.showControls(s, "loop-drag")
            let before = try Self.yellow(s, bar: bar, "loop-drag")
            let end = try #require(before.right, "no band to drag: \(before)")
            let y = bar.y + bar.height / 2
            try s.desktop.xdotool(["mousemove", String(end), String(y), "mousedown", "1"])
            for step in 1...8 {
                try s.desktop.moveMouse(end + step * 5, y)
                usleep(40_000)
            }
            try s.desktop.xdotool(["mouseup", "1"])
            try s.app.element(named: "Pause")   // a drag of the end is no scrub: still playing
            var moved = before
            do {
                try Desktop.wait("the band's end to follow the drag", timeout: 10) {
                    moved = try Self.yellow(s, bar: bar, "loop-dragged")
                    return abs((moved.right ?? 0) - (end + 40)) <= 4 && abs((moved.left ?? 0) - (before.left ?? 0)) <= 2
                }
            } catch {
                Issue.record("after dragging the end from \(end) to \(end + 40): \(moved) (before: \(before))")
                throw error
            }

            try s.desktop.key("shift+l")
            try s.app.waitForElement("the billboard saying it is cleared") { $0.role == "label" && $0.name == "Loop cleared" }
            try Self.showControls(s, "loop-cleared")
            try Desktop.wait("the band to go", timeout: 10) { try Self.yellow(s, bar: bar, "loop-cleared").count == 0 }
        }
    }

    /// Opens the picture's menu from the keyboard (Shift+F10), finds its loop item named `name`
    /// and picks it by its mnemonic, L (a popover's items are placed relative to it in the
    /// accessibility tree, so a click would need the screen to find it).
    static func choose(_ s: ControlsTests.Session, _ name: String) throws {
        try s.desktop.key("shift+F10")
        do {
            try s.app.waitForElement("the picture's menu with \(name)") { $0.role == "menu item" && $0.name == name }
        } catch {
            let items = (try? s.app.accessibleTree().filter { $0.role == "menu item" }.map(\.name)) ?? []
            Issue.record("menu items: \(items)")
            throw error
        }
        try s.desktop.key("l")
    }

    @Test("The menu item sets the start, then the end, then clears, named for what it does next")
    func menuItem() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try ControlsTests.Session(on: desktop, settings: ["message-display-duration=30.0"])
            try s.desktop.click(s.movie.x + 5, s.movie.y + 5)   // focus the window
            // The main menu (F10) holds the same item.
            try s.desktop.key("F10")
            try s.app.waitForElement("the main menu's loop item") { $0.role == "menu item" && $0.name == "Set Loop Start" }
            try s.desktop.key("Escape")
            try s.app.waitForTree("the main menu closed") { tree in !tree.contains { $0.role == "menu item" && $0.name == "Set Loop Start" } }
            try Desktop.wait("playing past a second", timeout: 20) { try s.elapsed().map { $0 >= 1 } ?? false }
            try Self.choose(s, "Set Loop Start")
            try s.app.waitForElement("the billboard with the loop's start") { $0.role == "label" && $0.name.hasPrefix("Loop start ") }
            let start = try #require(try s.elapsed())
            try Desktop.wait("playing a second on", timeout: 20) { try s.elapsed().map { $0 >= start + 1 } ?? false }
            try Self.choose(s, "Set Loop End")
            try s.app.waitForElement("the billboard with the loop") { $0.role == "label" && $0.name.hasPrefix("Loop ") && $0.name.contains("–") }
            try Self.choose(s, "Clear Loop")
            try s.app.waitForElement("the billboard saying it is cleared") { $0.role == "label" && $0.name == "Loop cleared" }
        }
    }
}
