import Foundation
import ReelTestSupport
import Testing

/// What Reel played, in the desktop's recent list as GTK's own API reads it (the list Files'
/// Recent and GNOME Shell's search show); listed again on the empty window's page, under Open
/// Recent, and in Open an Address, each opening it with a click; kept out of it when the
/// preference says so. Each test gives Reel a data folder of its own (the recent list's home).
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Recent files and addresses", .serialized)
struct RecentFilesWindowTests {
    /// The recent list's entries in `data` as GTK reads them: URI → ["Reel"] for Reel's (in its
    /// group or registered by its name), [] for another program's. The groups as read are
    /// printed when an entry of Reel's lacks the group (seen once in a busy run).
    static func recent(_ desktop: Desktop, data: URL) throws -> [String: [String]] {
        let script = """
            import sys, gi
            gi.require_version('Gtk', '4.0')
            from gi.repository import Gtk
            for item in Gtk.RecentManager(filename=sys.argv[1]).get_items():
                reel = 'Reel' in (item.get_groups() or []) or item.has_application('Reel')
                print(item.get_uri() + '\\t' + ('Reel' if reel else '') + '\\t' + ','.join(item.get_groups() or []))
            """
        let file = data.appendingPathComponent("recently-used.xbel").path
        guard FileManager.default.fileExists(atPath: file) else { return [:] }
        let lines = try desktop.run(["/usr/bin/python3", "-c", script, file]).output.split(separator: "\n")
        var entries: [String: [String]] = [:]
        for line in lines {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { continue }
            entries[parts[0]] = parts[1].isEmpty ? [] : ["Reel"]
            if !parts[1].isEmpty, !parts[2].split(separator: ",").contains("Reel") { print("Reel's entry without its group: \(line)") }
        }
        return entries
    }

    /// A file:// URI as GLib writes it (spaces and the like escaped).
    static func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    /// A data folder of the test's own, and a copy of a small clip under a name of its own.
    static func setUp(_ desktop: Desktop, clipName: String) throws -> (data: URL, clip: String) {
        let data = desktop.home.appendingPathComponent("recent-data-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let folder = desktop.home.appendingPathComponent("recent-films")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = folder.appendingPathComponent(clipName).path
        if !FileManager.default.fileExists(atPath: clip) { try FileManager.default.copyItem(atPath: try Fixtures.path(.longSmall), toPath: clip) }
        return (data, clip)
    }

    @Test("A film played is in the desktop's recent list; the next empty window lists it on its page and under Open Recent, and a click plays it")
    func playedFilesComeBack() throws {
        try SharedDesktop.standard.use { desktop in
            let (data, clip) = try Self.setUp(desktop, clipName: "Recent_film <one>.mp4")
            let environment = ["XDG_DATA_HOME": data.path]
            // The empty window stays empty (no queue of the last run comes back).
            try desktop.writeSettings(["remember-queue=false"])
            let first = try ReelApp(on: desktop, arguments: ["--paused", clip], environment: environment)
            try Desktop.wait("the film", log: first.log) { first.title.contains("Recent_film") }
            try Desktop.wait("the film in the recent list", log: first.log, timeout: 20) {
                try Self.recent(desktop, data: data)[Self.uri(clip)] == ["Reel"]
            }
            first.stop()

            let again = try ReelApp(on: desktop, environment: environment)
            defer { again.stop() }
            try again.element(named: "Open a Video")
            let row = try again.element(named: "Recent_film <one>.mp4", role: "list item")
            // Open Recent in the main menu lists it too (and is offered).
            let menu = try WindowActionsTests.openMainMenu(again, until: "Open Recent offered") {
                $0["Open Recent"]?.states.contains("sensitive") == true
            }
            #expect(menu["Open Recent"] != nil)
            try desktop.key("r")
            Thread.sleep(forTimeInterval: 2); print("TREE1", try again.accessibleTree().filter { $0.role == "menu item" }.map { "\($0.name)|\($0.states.contains("visible"))" })
            try again.waitForElement("the film under Open Recent") {
                $0.role == "menu item" && $0.name == "Recent_film <one>.mp4" && $0.states.contains("visible")
            }
            try desktop.key("Escape")
            try desktop.key("Escape")
            try Desktop.wait("the menu to close", log: again.log) {
                try !again.accessibleTree().contains { $0.role == "menu item" && $0.name == "About Reel" && $0.states.contains("visible") }
            }
            try again.click(row)
            try Desktop.wait("the film to play again", log: again.log) { again.title.contains("Recent_film") }
            try again.element(named: "Pause")
        }
    }

    @Test("History off: a film played stays out of the recent list; turning it off forgets Reel's entries and keeps other programs'")
    func historyOff() throws {
        try SharedDesktop.standard.use { desktop in
            let (data, clip) = try Self.setUp(desktop, clipName: "private film.mp4")
            let environment = ["XDG_DATA_HOME": data.path]
            // Another program's entry, which Reel must leave alone.
            let other = try desktop.run(["/usr/bin/python3", "-c", """
                import sys, gi
                gi.require_version('Gtk', '4.0')
                from gi.repository import Gtk, GLib
                m = Gtk.RecentManager(filename=sys.argv[1])
                data = Gtk.RecentData()
                data.app_name, data.app_exec, data.mime_type = 'another', 'another %u', 'text/plain'
                m.add_full('file:///tmp/another-program.txt', data)
                loop = GLib.MainLoop()
                m.connect('changed', lambda *a: loop.quit())
                loop.run()
                """, data.appendingPathComponent("recently-used.xbel").path])
            #expect(other.status == 0)
            try desktop.writeSettings(["remember-queue=false", "message-display-duration=30.0"])
            let app = try ReelApp(on: desktop, arguments: [clip], environment: environment)
            defer { app.stop() }
            try Desktop.wait("the film in the recent list", log: app.log, timeout: 20) {
                try Self.recent(desktop, data: data)[Self.uri(clip)] == ["Reel"]
            }
            _ = try PreferencesWindowTests.gsettings(desktop, ["set", "io.github.reel.Reel", "remember-recent", "false"])
            try Desktop.wait("Reel's entry forgotten", log: app.log, timeout: 20) {
                try Self.recent(desktop, data: data)[Self.uri(clip)] == nil
            }
            #expect(try Self.recent(desktop, data: data)["file:///tmp/another-program.txt"] != nil, "another program's entry went")
            app.stop()

            // Off from the start: a film played is not written.
            let s = try ControlsTests.Session(on: desktop, clip: .longSmall,
                                              settings: ["remember-queue=false", "remember-recent=false"], environment: environment)
            defer { s.app.stop() }
            // The recent list is written 250 ms after a change; a second of play is well past it.
            try Desktop.wait("a second of play", log: s.app.log, timeout: 30) { (try s.elapsed() ?? 0) >= 1 }
            let entries = try Self.recent(desktop, data: data)
            #expect(!entries.values.contains { $0.contains("Reel") }, "Reel kept: \(entries)")
            #expect(entries["file:///tmp/another-program.txt"] != nil)
        }
    }

    @Test("Open an Address offers the clipboard's address (Return plays it), and a new window’s dialog lists it, Enter on it playing it")
    func addresses() throws {
        try SharedDesktop.standard.use { desktop in
            let (data, clip) = try Self.setUp(desktop, clipName: "local film.mp4")
            let environment = ["XDG_DATA_HOME": data.path]
            let address = try WebServer.shared().publish(try Fixtures.path(.h264MP4), as: "recent/web film.mp4")
                .replacingOccurrences(of: " ", with: "%20")
            try desktop.writeSettings(["remember-queue=false"])
            let app = try ReelApp(on: desktop, arguments: ["--paused", clip], environment: environment)
            try Desktop.wait("the local film", log: app.log) { app.title.contains("local film") }
            // The address copied from a browser, as xclip holds it for the X clipboard.
            let copied = desktop.home.appendingPathComponent("copied.txt")
            try Data(address.utf8).write(to: copied)
            let holder = try desktop.start(["xclip", "-quiet", "-selection", "clipboard", "-i", copied.path])
            defer { kill(holder, SIGTERM) }
            try desktop.key("ctrl+l")
            try app.waitForElement("Open sensitive with the clipboard's address") {
                $0.role == "push button" && AddressDialogTests.isOpen($0.name) && $0.states.contains("sensitive")
            }
            try desktop.key("Return")
            try Desktop.wait("the address to play", log: app.log) { app.title.contains("web%20film") }
            try app.element(named: "Pause")
            try Desktop.wait("the address in the recent list", log: app.log, timeout: 20) {
                let entries = try Self.recent(desktop, data: data)
                if entries[address] != ["Reel"] { print("recent list now: \(entries)") }
                return entries[address] == ["Reel"]
            }
            app.stop()
            kill(holder, SIGTERM)

            let again = try ReelApp(on: desktop, environment: environment)
            defer { again.stop() }
            try again.element(named: "Open a Video")
            let g = try again.geometry()
            try desktop.click(g.x + 24, g.y + g.height / 2)
            try desktop.key("ctrl+l")
            let row = try again.waitForElement("the address under Recent Addresses") {
                $0.role == "list item" && $0.name == address && $0.states.contains("visible")
            }
            // Nothing on the clipboard now: the entry starts empty.
            try again.waitForElement("Open insensitive") {
                $0.role == "push button" && AddressDialogTests.isOpen($0.name) && !$0.states.contains("sensitive")
            }
            // The dialog is a window of its own (the tree's places are the main window's):
            // from the entry, Tab passes the offline box and reaches the list.
            try desktop.key("Tab")
            try desktop.key("Tab")
            try again.waitForElement("the address's row focused") { $0.name == row.name && $0.states.contains("focused") }
            try desktop.key("Return")
            try Desktop.wait("the address to play again", log: again.log) { again.title.contains("web%20film") }
        }
    }
}
