import Foundation
import ReelTestSupport
import Testing

/// The preferences window as people use it: libadwaita's pages of rows, each control named by
/// its row for screen readers; a click on a row, a combo row's item and the colour button's
/// dialog change the GSettings keys (read back with `gsettings`), and a key changed elsewhere
/// shows in its row.
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("The preferences window", .serialized)
struct PreferencesWindowTests {
    /// `gsettings` on the desktop, with the schema the app compiled for itself.
    static func gsettings(_ desktop: Desktop, _ arguments: [String]) throws -> String {
        let schemas = desktop.home.appendingPathComponent("cache/reel/schemas").path
        return try desktop.run(["env", "GSETTINGS_SCHEMA_DIR=\(schemas)", "gsettings"] + arguments).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func key(_ desktop: Desktop, _ name: String) throws -> String {
        try gsettings(desktop, ["get", "io.github.reel.Reel", name])
    }

    /// Ctrl+comma in the player's window, then the preferences window once it is there.
    static func openPreferences(_ app: ReelApp) throws -> ReelApp {
        try app.desktop.key("ctrl+comma")
        return try app.window(named: "Preferences")
    }

    /// The element from `tree` (one read of `window`), or from the reads that follow if that
    /// read lacked it.
    static func element(named name: String, role: String, in tree: [AccessibleNode], of window: ReelApp) throws -> AccessibleNode {
        try tree.first { $0.name == name && $0.role == role } ?? window.element(named: name, role: role)
    }

    /// Clicks the tab of the page named `name` in the header bar. The tree holds each tab two or
    /// three times (the header's wide and narrow switchers, the bottom bar's): the one shown is
    /// the wide one, its icon above its label, so the tallest.
    static func choosePage(_ name: String, in preferences: ReelApp) throws {
        let tree = try preferences.waitForTree("the \(name) page's tab") { tree in
            tree.contains { $0.role == "page tab" && $0.name == name && $0.width > 0 }
        }
        let tabs = tree.filter { $0.role == "page tab" && $0.name == name && $0.width > 0 }
        try preferences.click(try #require(tabs.max { $0.height < $1.height }))
    }

    /// Clicks the Subtitles page's tab and returns the element of that page matching `match`
    /// once the page is chosen: from the read that saw the tab selected when it holds it
    /// (the page is drawn then), else from the reads after.
    static func subtitlesPage(_ preferences: ReelApp, _ match: @escaping (AccessibleNode) -> Bool) throws -> AccessibleNode {
        try choosePage("Subtitles", in: preferences)
        let chosen = try preferences.waitForTree("the Subtitles page chosen") { tree in
            tree.contains { $0.role == "page tab" && $0.name == "Subtitles" && $0.states.contains("selected") }
        }
        return try chosen.first(where: match) ?? preferences.waitForElement("the control on the Subtitles page", match)
    }

    /// Every control of the preferences, by the role screen readers are told and the name its
    /// row gives it.
    static let controls: [(role: String, name: String)] = [
        ("check box", "Play as soon as a video opens"),
        ("combo box", "A video opened again"),
        ("check box", "Remember the queue for the next start"),
        ("check box", "Keep playing when the window is closed"),
        ("text", "Preferred audio languages (e.g. en, de)"),
        ("check box", "Level loudness"),
        ("spin button", "Seconds the controls stay without input"),
        ("check box", "A click on the picture shows or hides them"),
        ("check box", "Never hide the controls"),
        ("check box", "Hide the controls while paused too"),
        ("check box", "Show the time remaining instead of the total"),
        ("check box", "Minus sign before the time remaining"),
        ("check box", "Always show hours"),
        ("check box", "Show frames (timecode H:MM:SS:FF)"),
        ("combo box", "Size of plain subtitles"),
        ("push button", "Font"),
        ("push button", "Text colour"),
        ("check box", "Outline and shadow"),
        ("check box", "Dark box behind the text"),
        ("check box", "Use this style for styled (ASS) subtitles too"),
        ("text", "Preferred languages (e.g. en, fr)"),
        ("combo box", "Encoding of subtitle files"),
        ("check box", "Save Picture includes the subtitles"),
        ("check box", "Keep streamed videos on disk (seek back and watch again offline)"),
        ("spin button", "Disk cache size limit (GB)"),
        ("combo box", "Draw the video with"),
        ("spin button", "How often the shown time changes (seconds)"),
        ("spin button", "Subtitle distance from the bottom (% of the picture)"),
    ]

    /// The Advanced page's rows, in order: what few people change, away from the everyday ones.
    static let advanced = ["Draw the video with", "How often the shown time changes (seconds)",
                           "Subtitle distance from the bottom (% of the picture)"]

    @Test("Ctrl+comma opens pages of named rows; a click on a switch row and a combo row's item change their keys, keys changed elsewhere show in the rows, and search finds a row")
    func rowsAndKeys() throws {
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop)
            try app.element(named: "Open a Video")
            let preferences = try Self.openPreferences(app)
            // One read of the whole window (hundreds of elements: a read takes most of a second)
            // for its five page tabs and every control.
            let pages = ["Playback", "Controls", "Subtitles", "Streaming", "Advanced"]
            let tree = try preferences.waitForTree("the five page tabs") { tree in
                pages.allSatisfy { page in tree.contains { $0.role == "page tab" && $0.name == page } }
            }
            let missing = Self.controls.filter { control in !tree.contains { $0.role == control.role && $0.name == control.name } }
            #expect(missing.isEmpty, "unnamed or missing: \(missing)\n\(tree.filter { !$0.name.isEmpty }.map(\.description).joined(separator: "\n"))")

            // A click on the row, not on its switch, turns the switch off and the key with it.
            #expect(try Self.key(desktop, "remember-queue") == "true")
            // The row as that read placed it: nothing has happened in the window since.
            let row = try Self.element(named: "Remember the queue for the next start", role: "list item", in: tree, of: preferences)
            try desktop.click(row.x + row.width / 4, row.y + row.height / 2)
            try Desktop.wait("remember-queue off", log: app.log) { try Self.key(desktop, "remember-queue") == "false" }
            let switched = try preferences.waitForTree("the switch shown off") { tree in
                tree.contains { $0.role == "check box" && $0.name == "Remember the queue for the next start" && !$0.states.contains("checked") }
            }

            // The combo row's list: the item after the chosen one, by keyboard.
            #expect(try Self.key(desktop, "resume-playback") == "'resume'")
            let resume = try Self.element(named: "A video opened again", role: "combo box", in: switched, of: preferences)
            try preferences.click(resume)
            // GTK 4.8 tells no "showing" state; the popover's list items are made when it opens.
            try preferences.waitForElement("the resume choices listed") {
                $0.role == "label" && $0.name == "Asks whether to resume" && $0.states.contains("visible")
            }
            try desktop.key("Down", "Return")
            try Desktop.wait("resume-playback ask", log: app.log) { try Self.key(desktop, "resume-playback") == "'ask'" }

            // A language list typed into its entry row.
            try preferences.click(try preferences.element(named: "Preferred audio languages (e.g. en, de)", role: "text"))
            try desktop.xdotool(["type", "--delay", "40", "de, en"])
            try Desktop.wait("audio-languages typed", log: app.log) { try Self.key(desktop, "audio-languages") == "'de, en'" }

            // Changed elsewhere: the rows follow (the three keys set at once, their rows read
            // together). An encoding typed before there was a list reads as its entry.
            _ = try Self.gsettings(desktop, ["set", "io.github.reel.Reel", "resume-playback", "never"])
            _ = try Self.gsettings(desktop, ["set", "io.github.reel.Reel", "autoplay", "false"])
            _ = try Self.gsettings(desktop, ["set", "io.github.reel.Reel", "subtitle-charset", "windows-1251"])
            let followed: [(what: String, match: (AccessibleNode) -> Bool)] = [
                // In the row itself, not in its closed list.
                ("the combo row showing Starts from the beginning", {
                    $0.role == "label" && $0.name == "Starts from the beginning" && $0.states.contains("visible")
                        && (resume.y..<resume.y + resume.height).contains($0.y + $0.height / 2)
                        && (resume.x..<resume.x + resume.width).contains($0.x + $0.width / 2)
                }),
                ("the autoplay switch off", {
                    $0.role == "check box" && $0.name == "Play as soon as a video opens" && !$0.states.contains("checked")
                }),
                ("Cyrillic (Windows-1251) in the encoding row", { $0.role == "label" && $0.name == "Cyrillic (Windows-1251)" }),
            ]
            var notYet: [String] = []
            do {
                try Desktop.wait("the rows to follow the keys", log: app.log) {
                    let now = try preferences.accessibleTree()
                    notYet = followed.filter { row in !now.contains(where: row.match) }.map(\.what)
                    return notYet.isEmpty
                }
            } catch {
                Issue.record("the rows did not follow: \(notYet)")
                throw error
            }
            // One the list lacks is added.
            _ = try Self.gsettings(desktop, ["set", "io.github.reel.Reel", "subtitle-charset", "CP1251"])
            try preferences.waitForElement("CP1251 in the encoding row") { $0.role == "label" && $0.name == "CP1251" }
            #expect(try Self.key(desktop, "subtitle-charset") == "'CP1251'")

            // Search finds a row on another page and says where it is.
            try desktop.key("ctrl+f")
            try desktop.xdotool(["type", "--delay", "40", "colour"])
            try preferences.waitForElement("Text colour found on the Subtitles page") {
                $0.role == "label" && $0.name == "Subtitles → Style" && $0.width > 0
            }
            #expect(app.isRunning)
        }
    }

    @Test("A colour picked in the colour button's dialog becomes subtitle-color, and the cue on screen is drawn in it; a colour set elsewhere shows in the button")
    func subtitleColour() throws {
        try SharedDesktop.standard.use { desktop in
            let folder = desktop.home.appendingPathComponent("films").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let clip = folder + "/film.mp4"
            if !FileManager.default.fileExists(atPath: clip) {
                try FileManager.default.copyItem(atPath: try Fixtures.path(.subtitleCanvas), toPath: clip)
            }
            try "1\n00:00:01,000 --> 00:00:05,000\nHELLO WORLD\n".write(toFile: folder + "/film.srt", atomically: true, encoding: .utf8)
            let app = try ReelApp(on: desktop, arguments: ["--paused", "--start", "2", clip])
            // GNOME's palette, as GTK's colour chooser offers it: "Red" is Red 3, #e01b24.
            let red = "#e01b24"
            // The window may be drawn smaller than the video: shares of the picture do not mind.
            let before = try app.saveSettledPicture("the white cue", name: "white-cue", timeout: 40) { _, _ in true }
            let white = (try ScreenImage.fraction(before, near: "#ffffff"), try ScreenImage.fraction(before, near: red))
            #expect(white.0 > 0.001 && white.1 == 0, "the cue before: white \(white.0), red \(white.1)")

            let movie = try app.element(named: "Video")
            try desktop.click(movie.x + 5, movie.y + 5)
            let preferences = try Self.openPreferences(app)
            let colourButton = try Self.subtitlesPage(preferences) { $0.role == "push button" && $0.name == "Text colour" && $0.width > 0 }
            try preferences.click(colourButton)
            let dialog = try app.window(named: "Subtitle Colour")
            try dialog.click(try dialog.element(named: "Red", role: "radio button"))
            // The button's own name reads "_Select Select" in GTK 4.8: its label is clicked.
            try dialog.click(try dialog.element(named: "Select", role: "label"))
            try Desktop.wait("subtitle-color \(red)", log: app.log) { try Self.key(desktop, "subtitle-color") == "'\(red)'" }

            var shares = (red: 0.0, white: 0.0)
            _ = try app.saveSettledPicture("the cue drawn in \(red)", name: "red-cue", timeout: 40) { _, png in
                let path = desktop.home.appendingPathComponent("red-cue-check.png")
                try png.write(to: path)
                shares = (try ScreenImage.fraction(path.path, near: red), try ScreenImage.fraction(path.path, near: "#ffffff"))
                return shares.red > white.0 / 2
            }
            #expect(shares.white < white.0 / 20, "white left in the cue: \(shares), before \(white)")

            // Set elsewhere: the button's swatch, which GTK names by its channels, follows.
            let swatch = { (name: String) in
                try preferences.waitForElement("the colour button's swatch reading \(name)") { $0.role == "image" && $0.name == name }
            }
            _ = try Self.gsettings(desktop, ["set", "io.github.reel.Reel", "subtitle-color", "#00ff00"])
            try swatch("Red 0%, Green 100%, Blue 0%")
            _ = try Self.gsettings(desktop, ["set", "io.github.reel.Reel", "subtitle-color", "#0000ff"])
            try swatch("Red 0%, Green 0%, Blue 100%")
            #expect(app.isRunning)
        }
    }

    @Test("A family picked in the font button's dialog becomes subtitle-font, the family alone (what libass is handed); a family set elsewhere shows in the button")
    func subtitleFont() throws {
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop)
            try app.element(named: "Open a Video")
            #expect(try Self.key(desktop, "subtitle-font") == "'DejaVu Sans'")
            let preferences = try Self.openPreferences(app)
            let button = try Self.subtitlesPage(preferences) { $0.role == "push button" && $0.name == "Font" && $0.width > 0 }
            try preferences.click(button)
            let dialog = try app.window(named: "Subtitle Font")
            // The search field has the focus: the list keeps the families that match.
            try desktop.xdotool(["type", "--delay", "40", "DejaVu Serif"])
            try dialog.click(try dialog.waitForElement("DejaVu Serif listed") {
                $0.name == "DejaVu Serif" && $0.role != "text" && $0.width > 0
            })
            try dialog.click(try dialog.element(named: "Select", role: "label"))
            try Desktop.wait("subtitle-font DejaVu Serif", log: app.log) { try Self.key(desktop, "subtitle-font") == "'DejaVu Serif'" }
            // The button itself reads the family chosen.
            try preferences.waitForElement("the button reading DejaVu Serif") {
                $0.role == "label" && $0.name == "DejaVu Serif"
                    && (button.x..<button.x + button.width).contains($0.x + $0.width / 2)
                    && (button.y..<button.y + button.height).contains($0.y + $0.height / 2)
            }
            // Set elsewhere: the button follows.
            _ = try Self.gsettings(desktop, ["set", "io.github.reel.Reel", "subtitle-font", "Nimbus Sans"])
            try preferences.waitForElement("the button reading Nimbus Sans") {
                $0.role == "label" && $0.name == "Nimbus Sans"
                    && (button.y..<button.y + button.height).contains($0.y + $0.height / 2)
            }
        }
    }

    @Test("The Advanced page holds the drawing, the time's refresh and the subtitles' distance (in percent; the key keeps its fraction); Escape closes the window")
    func advancedPage() throws {
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop)
            try app.element(named: "Open a Video")
            let preferences = try Self.openPreferences(app)
            try Self.choosePage("Advanced", in: preferences)
            let page = try preferences.waitForTree("the Advanced page chosen, its rows laid out") { tree in
                tree.contains { $0.role == "page tab" && $0.name == "Advanced" && $0.states.contains("selected") }
                    && Self.advanced.allSatisfy { name in tree.contains { $0.name == name && $0.width > 0 } }
            }
            // Moved there, not copied: each control once in the whole window, in the page's order.
            let controls = page.filter { ["spin button", "combo box", "check box"].contains($0.role) }
            let rows = Self.advanced.map { name in controls.filter { $0.name == name } }
            #expect(rows.allSatisfy { $0.count == 1 }, "\(rows)")
            let tops = rows.compactMap(\.first).map(\.y)
            #expect(tops == tops.sorted(), "not in order: \(rows)")
            // Percent in the row, a fraction in the key.
            #expect((Double(try Self.key(desktop, "subtitle-position")) ?? 0).distance(to: 0.05).magnitude < 0.0001)
            let distance = try #require(page.first { $0.role == "spin button" && $0.name == Self.advanced[2] })
            try preferences.click(distance)
            try desktop.key("ctrl+a")
            try desktop.xdotool(["type", "--delay", "40", "12"])
            try desktop.key("Tab")
            try Desktop.wait("subtitle-position 0.12", log: app.log) {
                (Double(try Self.key(desktop, "subtitle-position")) ?? 0).distance(to: 0.12).magnitude < 0.0001
            }
            _ = try Self.gsettings(desktop, ["set", "io.github.reel.Reel", "subtitle-position", "0.2"])
            try preferences.waitForElement("the row reading 20 %") {
                $0.role == "spin button" && $0.name == Self.advanced[2] && $0.value.map { abs($0 - 20) < 0.001 } == true
            }
            try desktop.key("Escape")
            try Desktop.wait("Escape to close the preferences", log: app.log, timeout: 10) {
                try desktop.run(["xdotool", "search", "--onlyvisible", "--name", "^Preferences$"], check: false).status != 0
            }
        }
    }

}
