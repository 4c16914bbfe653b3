import Foundation
import ReelTestSupport
import Testing

/// What the window offers is what can act: the main menu with nothing open and with a film
/// playing, read from the accessibility tree and from the actions GApplication exports on the
/// bus; the info card placed below the header bar; About's icon, run from the source tree.
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Actions offered as they can act", .serialized)
struct WindowActionsTests {
    /// The main menu's items that need media (the submenus' own pages repeat some titles after).
    static let mediaItems = ["Media Information", "Playback Speed", "Subtitles", "Audio", "Save Picture…",
                             "Save Picture without Subtitles…"]
    static let alwaysItems = ["Open File…", "Open URL…", "Preferences", "Keyboard Shortcuts", "About Reel"]

    /// Whether the window's action `name` is enabled, as the app exports it (org.gtk.Actions).
    static func enabled(_ desktop: Desktop, _ name: String) throws -> Bool {
        let answer = try desktop.run(["gdbus", "call", "--session", "--dest", "io.github.reel.Reel", "--object-path",
                                      "/io/github/reel/Reel/window/1", "--method", "org.gtk.Actions.Describe", name]).output
        // ((true, '', @av []),)
        return answer.hasPrefix("((true,")
    }

    /// The main menu's first page as one read of the tree shows it: each item by its name.
    static func mainMenuItems(_ tree: [AccessibleNode]) -> [String: AccessibleNode] {
        var items: [String: AccessibleNode] = [:]
        for node in tree where node.role == "menu item" && items[node.name] == nil { items[node.name] = node }
        return items
    }

    /// F10 in the window (focused by a click beside the status page's buttons), then the menu's
    /// first page once `condition` holds for it.
    static func openMainMenu(_ app: ReelApp, until what: String,
                             _ condition: @escaping ([String: AccessibleNode]) -> Bool) throws -> [String: AccessibleNode] {
        let g = try app.geometry()
        try app.desktop.click(g.x + 24, g.y + g.height / 2)
        try app.desktop.key("F10")
        let tree = try app.waitForTree(what) { tree in
            let items = mainMenuItems(tree)
            return items["About Reel"] != nil && condition(items)
        }
        return mainMenuItems(tree)
    }

    @Test("With nothing open the main menu's media items are insensitive and Ctrl+S's action disabled; with a film playing they act")
    func menuFollowsMedia() throws {
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop)
            try app.element(named: "Open a Video")
            for action in ["save-frame", "save-frame-plain", "toggle-info", "speed", "toggle-pause", "add-subtitle"] {
                #expect(try !Self.enabled(desktop, action), "\(action) is enabled with nothing open")
            }
            #expect(try Self.enabled(desktop, "open"))
            let empty = try Self.openMainMenu(app, until: "the main menu open") { _ in true }
            for name in Self.mediaItems {
                let item = try #require(empty[name], "no menu item \(name) in \(empty.keys.sorted())")
                #expect(!item.states.contains("sensitive"), "\(name) is offered with nothing open: \(item)")
            }
            for name in Self.alwaysItems {
                #expect(empty[name]?.states.contains("sensitive") == true, "\(name) is not offered: \(String(describing: empty[name]))")
            }
            try desktop.key("Escape")

            // A second launch hands the film to this window.
            let clip = try Fixtures.path(.solidRed)
            try desktop.run([ReelApp.binary, clip])
            try Desktop.wait("the film's title", log: app.log, timeout: 20) { app.title.contains("solid-red") }
            try app.element(named: "Pause")
            for action in ["save-frame", "save-frame-plain", "toggle-info", "speed", "toggle-pause", "add-subtitle"] {
                #expect(try Self.enabled(desktop, action), "\(action) is disabled while a film plays")
            }
            _ = try Self.openMainMenu(app, until: "every item of the menu sensitive") { items in
                (Self.mediaItems + Self.alwaysItems).allSatisfy { items[$0]?.states.contains("sensitive") == true }
            }
            try desktop.key("Escape")
        }
    }

    @Test("The info card lies below the header bar, not under its buttons")
    func infoCardBelowHeader() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try ControlsTests.Session(on: desktop)
            try s.desktop.click(s.movie.x + 5, s.movie.y + s.movie.height / 2)   // focus the window
            let menu = try s.app.revealHeader()
            try s.desktop.key("i")
            let card = try s.app.element(named: "Media information")
            #expect(card.y >= menu.y + menu.height, "the card (\(card)) starts under the header's buttons (\(menu))")
            #expect(card.y + card.height <= s.movie.y + s.movie.height, "the card runs off the picture: \(card)")
        }
    }

    @Test("About shows Reel's icon when Reel runs from its source tree, and Escape closes it")
    func aboutIcon() throws {
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop)
            try app.element(named: "Open a Video")
            _ = try Self.openMainMenu(app, until: "the main menu open") { _ in true }
            // From the first item up to the last, About Reel, by the keyboard (a popover's items
            // cannot be placed on screen from the accessibility tree: their extents are the popover's).
            try desktop.key("Up", "Return")
            let about = try app.window(named: "About")
            // The icon above the name: Reel's reel is blue, GTK's missing-icon picture grey. The
            // window itself is read (a 32-bit window is not in a picture of the 24-bit root).
            var blue = 0.0
            do {
                try Desktop.wait("Reel's icon drawn", log: app.log, timeout: 20) {
                    let top = desktop.home.appendingPathComponent("about-top.png").path
                    try desktop.run(["sh", "-c", "xwd -id \(about.window) -silent | convert xwd:- -gravity north -crop 100%x45%+0+0 +repage png:\(top)"])
                    blue = try ScreenImage.fraction(top, near: "#3584e4", fuzz: 12)
                    return blue > 0.01
                }
            } catch {
                Issue.record("the top of About is \(blue * 100) % Reel's blue")
                throw error
            }
            try desktop.key("Escape")
            try Desktop.wait("Escape to close About", log: app.log, timeout: 10) {
                try desktop.run(["xdotool", "search", "--onlyvisible", "--name", "^About$"], check: false).status != 0
            }
        }
    }
}
