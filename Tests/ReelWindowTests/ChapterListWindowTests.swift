import Foundation
import ReelTestSupport
import Testing

/// The chapter list and the scrubber's chapter marks as a person uses them, on the file made by
/// ffmpeg with two chapters ("Opening" from 0 s, "Main part" from 2 s): the list opens from the
/// main menu and from the picture's menu, shows every chapter with the playing one marked (read
/// through the accessibility tree, as a screen reader reads it; the mark follows the position
/// while the list is open), and a row chosen by the
/// keyboard or the pointer lands exactly on its start (the scrubber's value, the position the
/// player reports) with the billboard naming it; a click near a mark lands on its chapter's
/// start, a click between marks under the pointer.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Chapter list and chapter marks in the window", .serialized)
struct ChapterListWindowTests {
    typealias Session = ControlsTests.Session
    static let opening = "Opening, from 0:00", main = "Main part, from 0:02"

    /// The scrubber's value: the position the player reports, to the microsecond.
    static func position(_ s: Session) throws -> Double? {
        try s.app.accessibleTree().first { $0.role == "slider" && $0.name == "Position" }?.value
    }

    static func waitForPosition(_ s: Session, _ what: String, _ test: @escaping (Double) -> Bool) throws -> Double {
        var seen: Double?
        do {
            try Desktop.wait(what, log: s.app.log, timeout: 20) {
                seen = try position(s)
                return seen.map(test) ?? false
            }
        } catch {
            Issue.record("waiting for \(what), the position read \(String(describing: seen))")
            throw error
        }
        return seen!
    }

    /// The list's rows as the accessibility tree has them, once it shows `rows`.
    static func waitForRows(_ s: Session, _ rows: [String]) throws {
        try s.app.waitForTree("the chapter list showing \(rows)") { tree in
            let shown = tree.filter { $0.role == "list item" && $0.states.contains("visible") }.map(\.name)
            return shown == rows
        }
    }

    static func listClosed(_ s: Session) throws {
        try s.app.waitForTree("the chapter list closed") { tree in
            !tree.contains { $0.role == "list item" && $0.states.contains("visible") && $0.name.contains(", from ") }
        }
    }

    /// The chapter list's rows where they are on screen: GTK reports a popover's children as
    /// if it sat at its parent's origin, so the popover's own window (found by its size among
    /// the app's) places them.
    static func rowsOnScreen(_ s: Session) throws -> [AccessibleNode] {
        let tree = try s.app.accessibleTree()
        guard let first = tree.firstIndex(where: { $0.role == "list item" && $0.name.contains(", from ") }),
              let start = tree[..<first].lastIndex(where: { $0.name == "GtkPopover" }) else { return [] }
        let popover = tree[start]
        let ids = try s.desktop.run(["xdotool", "search", "--onlyvisible", "--pid", String(s.app.pid)]).output
            .split(separator: "\n").map(String.init)
        for id in ids {
            guard let text = try? s.desktop.run(["xdotool", "getwindowgeometry", "--shell", id]).output else { continue }
            var v: [String: Int] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=")
                if parts.count == 2 { v[String(parts[0])] = Int(parts[1]) }
            }
            guard v["WIDTH"] == popover.width, v["HEIGHT"] == popover.height, let x = v["X"], let y = v["Y"] else { continue }
            return tree[start...].filter { $0.role == "list item" }.map { node in
                AccessibleNode(role: node.role, name: node.name, states: node.states,
                               x: x + node.x - popover.x, y: y + node.y - popover.y, width: node.width, height: node.height)
            }
        }
        return []
    }

    @Test("Chapters… in either menu lists every chapter, the playing one marked; Enter or a click on a row goes to its start")
    func list() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try Session(on: desktop, arguments: ["--paused"], clip: .withChapters, settings: [ControlsTests.readableMessages])
            try s.desktop.click(s.movie.x + 5, s.movie.y + s.movie.height / 2)   // focus the window
            // From the main menu, by its mnemonic.
            try s.app.click(try s.app.revealHeader())
            try s.app.waitForElement("Chapters… in the main menu") { $0.role == "menu item" && $0.name == "Chapters…" }
            try s.desktop.key("c")
            try Self.waitForRows(s, [Self.opening + " (playing)", Self.main])
            // Kept current while open: the remote moves the position into the second chapter and back.
            _ = try MPRISTests.playerctl(s.desktop, ["position", "3"])
            try Self.waitForRows(s, [Self.opening, Self.main + " (playing)"])
            _ = try MPRISTests.playerctl(s.desktop, ["position", "0"])
            try Self.waitForRows(s, [Self.opening + " (playing)", Self.main])
            // The keyboard: the playing row has the focus; Down, then Enter.
            try s.desktop.key("Down")
            try s.desktop.key("Return")
            try s.app.waitForElement("the billboard naming chapter 2") { $0.role == "label" && $0.name == "Chapter 2: Main part" }
            _ = try Self.waitForPosition(s, "the position at 2 s exactly") { $0 == 2 }
            try Self.listClosed(s)

            // From the picture's menu: the second chapter is marked now; a click on the first.
            try s.desktop.xdotool(["mousemove", String(s.movie.x + s.movie.width / 3), String(s.movie.y + s.movie.height / 3), "click", "3"])
            try s.app.waitForElement("Chapters… in the picture's menu") { $0.role == "menu item" && $0.name == "Chapters…" }
            try s.desktop.key("c")
            try Self.waitForRows(s, [Self.opening, Self.main + " (playing)"])
            var row: AccessibleNode?
            try Desktop.wait("the rows on screen", log: s.app.log) {
                row = try Self.rowsOnScreen(s).first { $0.name == Self.opening }
                return row != nil
            }
            try s.app.click(row!)
            try s.app.waitForElement("the billboard naming chapter 1") { $0.role == "label" && $0.name == "Chapter 1: Opening" }
            _ = try Self.waitForPosition(s, "the position at 0 s exactly") { $0 == 0 }
            try Self.listClosed(s)
        }
    }

    @Test("A click a few pixels from a chapter's mark lands on its start exactly; clicks between marks land under the pointer")
    func markClicks() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try Session(on: desktop, arguments: ["--paused"], clip: .withChapters, settings: [ControlsTests.readableMessages])
            let bar = try s.app.element(named: "Position", role: "slider")
            let y = bar.y + bar.height / 2
            // Paused, the controls are up; the pointer comes to the scrubber as a person's does.
            try s.desktop.glide(to: bar.x + bar.width / 2, y)
            // Two clicks well away from the mark (at 2 s of 6, a third of the way) give the
            // scrubber's scale: each lands on the time under the pointer.
            let x1 = bar.x + bar.width / 8, x2 = bar.x + bar.width * 7 / 8
            try s.desktop.click(x1, y)
            let t1 = try Self.waitForPosition(s, "a click at 1/8 to land") { $0 > 0.2 && $0 < 1.5 }
            try s.desktop.click(x2, y)
            let t2 = try Self.waitForPosition(s, "a click at 7/8 to land") { $0 > 4.5 && $0 < 5.8 }
            let secondsPerPixel = (t2 - t1) / Double(x2 - x1)
            // Between the mark and the end: under the pointer, within a pixel.
            let x3 = bar.x + bar.width * 5 / 8
            let expected = t1 + Double(x3 - x1) * secondsPerPixel
            try s.desktop.click(x3, y)
            let t3 = try Self.waitForPosition(s, "a click at 5/8 to land under the pointer") { abs($0 - expected) <= 1.5 * secondsPerPixel }
            #expect(abs(t3 - expected) <= 1.5 * secondsPerPixel, "clicked at \(expected) s, landed at \(t3) s")
            // Four pixels before the mark: the time under the pointer is before 2 s; the click
            // lands on the chapter's start, named on the billboard.
            let mark = Double(x1) + (2 - t1) / secondsPerPixel
            let near = Int(mark.rounded()) - 4
            print("Chapter mark at x \(mark) (scrubber \(bar)); \(secondsPerPixel * 1000) ms a pixel; clicking at \(near)")
            try s.desktop.click(near, y)
            try s.app.waitForElement("the billboard naming chapter 2") { $0.role == "label" && $0.name == "Chapter 2: Main part" }
            _ = try Self.waitForPosition(s, "the position at 2 s exactly") { $0 == 2 }
        }
    }
}
