import Foundation
import ReelTestSupport
import Testing

/// The queue in the real window: the next item following without a stop, and reordering by
/// drag in the queue panel — judged from the window title, the picture and the accessibility
/// tree. (What plays next, skipping and restoring are the playback session's rules: ReelUnitTests.)
/// Threading: serialised; the tests take turns on one desktop, each from a clean slate.
@Suite("Queue in the window", .serialized)
struct QueueWindowTests {
    static let desktops = SharedDesktop()
    static func name(_ path: String) -> String { (path as NSString).lastPathComponent }

    @Test("The next item follows without a stop: the title and the queue move on while it plays on")
    func followsWithoutStopping() throws {
        try Self.desktops.use { desktop in
            // A long second item: what is checked after the hand-over has time to be read.
            let first = try Fixtures.path(.gaplessFirst), second = try Fixtures.path(.longSmall)
            let app = try ReelApp(on: desktop, arguments: [first, second])
            defer { app.stop() }
            try Desktop.wait("the first item", log: app.log) { app.title.contains(Self.name(first)) }
            try Desktop.wait("the second item", log: app.log, timeout: 20) { app.title.contains(Self.name(second)) }
            // Still playing, with the second item's picture (its test pattern, not black).
            try app.element(named: "Pause")
            let view = try app.element(named: "Video", timeout: 5)
            let picture = try ScreenImage.average(try desktop.screenshot("second-item"), x: view.x + view.width / 4,
                                                  y: view.y + view.height / 4, width: view.width / 2, height: view.height / 4)
            #expect(picture.r + picture.g + picture.b > 150, "the picture after the hand-over is dark: \(picture)")
            try app.click(try app.revealHeader(showing: "Queue"))
            let rows = try Self.rows(app, count: 2)
            #expect(rows == [Self.name(first), Self.name(second) + " (playing)"], "rows: \(rows)")
        }
    }

    /// The queue panel's rows, top to bottom, once there are `count`.
    static func rows(_ app: ReelApp, count: Int) throws -> [String] {
        var names: [String] = []
        try Desktop.wait("\(count) rows in the queue panel", log: app.log) {
            names = try app.accessibleTree().filter { $0.role == "list item" && $0.states.contains("visible") }
                .sorted { $0.y < $1.y }.map(\.name)
            return names.count == count
        }
        return names
    }

    /// The popover's elements where they are on screen. GTK 4.8 reports a popover's
    /// accessible extents as if it sat at its button; it is a surface of its own, found here
    /// by its size among the app's windows.
    static func onScreen(_ app: ReelApp) throws -> [AccessibleNode] {
        let tree = try app.accessibleTree()
        guard let popover = tree.first(where: { $0.name == "GtkPopover" }),
              let start = tree.firstIndex(where: { $0.name == "GtkPopover" }) else { return [] }
        let ids = try app.desktop.run(["xdotool", "search", "--onlyvisible", "--pid", String(app.pid)]).output
            .split(separator: "\n").map(String.init)
        for id in ids {
            // A window listed can be gone a moment later (a tooltip, the drag's icon).
            guard let text = try? app.desktop.run(["xdotool", "getwindowgeometry", "--shell", id]).output else { continue }
            var v: [String: Int] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=")
                if parts.count == 2 { v[String(parts[0])] = Int(parts[1]) }
            }
            guard v["WIDTH"] == popover.width, v["HEIGHT"] == popover.height, let x = v["X"], let y = v["Y"] else { continue }
            return tree[start...].map { node in
                AccessibleNode(role: node.role, name: node.name, states: node.states,
                               x: x + node.x - popover.x, y: y + node.y - popover.y, width: node.width, height: node.height)
            }
        }
        return []
    }

    /// Clicks the highest or lowest row of the queue panel until `row` shows as chosen there,
    /// each click apart from the one before by more than a double click's time (two in time
    /// would play the row). `always`: click once even if it is chosen already (the click is
    /// the point: once it is answered, every event before it was handled).
    static func choose(_ app: ReelApp, row: String, lowest: Bool, always: Bool = false) throws {
        var chosen = false
        for attempt in 0..<10 where !chosen {
            let rows = try onScreen(app).filter { $0.role == "list item" }
            let target = try #require(lowest ? rows.max { $0.y < $1.y } : rows.min { $0.y < $1.y })
            if target.name == row && target.states.contains("selected") && !(always && attempt == 0) { return }
            try app.desktop.click(target.x + target.width / 3, target.y + target.height / 2)
            chosen = (try? app.waitForElement("\(row) chosen", timeout: 1) {
                $0.role == "list item" && $0.name == row && $0.states.contains("selected")
            }) != nil
        }
        try #require(chosen, "the queue panel never showed \(row) chosen")
    }

    /// How many items the queue saved on disk holds (the app writes it at every change).
    static func savedItems(_ desktop: Desktop) throws -> Int {
        let data = try Data(contentsOf: desktop.home.appendingPathComponent("state/reel/queue.json"))
        let saved = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require((saved["queue"] as? [String: Any])?["items"] as? [Any]).count
    }

    @Test("Dragging a row in the queue panel moves the item; × removes one; a chosen row plays on Enter")
    func panelEdits() throws {
        try Self.desktops.use { desktop in
            let a = try Fixtures.path(.longSmall), b = try Fixtures.path(.h264MP4), c = try Fixtures.path(.videoOnly)
            let app = try ReelApp(on: desktop, arguments: [a, b, c])
            defer { app.stop() }
            try Desktop.wait("the first item", log: app.log) { app.title.contains(Self.name(a)) }
            try app.click(try app.revealHeader(showing: "Queue"))
            _ = try Self.rows(app, count: 3)
            let tree = try Self.onScreen(app).filter { $0.role == "list item" }.sorted { $0.y < $1.y }
            // Drag the last row onto the first, in steps as a hand does.
            let from = tree[2], to = tree[0]
            let x = from.x + from.width / 3
            try desktop.xdotool(["mousemove", String(x), String(from.y + from.height / 2), "mousedown", "1"])
            for step in 1...12 {
                try desktop.moveMouse(x, from.y + from.height / 2 + (to.y - from.y) * step / 12)
                usleep(40_000)
            }
            usleep(200_000)
            try desktop.xdotool(["mouseup", "1"])
            var rows: [String] = []
            try Desktop.wait("the moved row", log: app.log) {
                rows = try Self.rows(app, count: 3)
                return rows.first == Self.name(c)
            }
            #expect(rows == [Self.name(c), Self.name(a) + " (playing)", Self.name(b)], "rows: \(rows)")
            // × on the middle (playing) row: what follows it plays.
            // The panel answering clicks again first: clicks right after a drop go unanswered
            // (the × did nothing, whatever the wait; one click was not always enough on a busy
            // machine), as if the drop still held the pointer. So the last row is clicked until
            // it shows as chosen. On the last row, so that choosing the first one below still counts.
            try Self.choose(app, row: Self.name(b), lowest: true)
            // A × click was still lost now and then on a busy machine (about once in fifty runs:
            // the queue kept all three items, the popover open, the button where it was read; the
            // cause is not known). Clicking again is safe only once the first click is known to
            // be lost: the first row shown as chosen after it proves every earlier event was
            // handled, and the queue saved inside the × handler then says whether it removed.
            var removed = false
            for attempt in 1...3 where !removed {
                try app.click(try #require(try Self.onScreen(app).first { $0.name == "Remove \(Self.name(a))" }))
                try Self.choose(app, row: Self.name(c), lowest: false, always: true)
                removed = try Self.savedItems(desktop) == 2
                if !removed { print("the × click on \(Self.name(a)) went unanswered (attempt \(attempt))") }
            }
            try #require(removed, "× never removed \(Self.name(a)) from the queue")
            try Desktop.wait("the next item playing", log: app.log) { app.title.contains(Self.name(b)) }
            rows = try Self.rows(app, count: 2)
            #expect(rows == [Self.name(c), Self.name(b) + " (playing)"], "rows: \(rows)")
            // The first row chosen (still, after the rows were made again) and Enter plays it (as a double click does; two clicks
            // can arrive too far apart for one on a busy machine).
            try Self.choose(app, row: Self.name(c), lowest: false)
            try desktop.key("Return")
            try Desktop.wait("the chosen item", log: app.log) { app.title.contains(Self.name(c)) }
        }
    }
}
