import Foundation
import ReelTestSupport
import Testing

/// Loudness levelling from the window, with real keys: the Audio submenu's Level Loudness item
/// (the main menu's and the picture's) switches the player, as `--report` tells, with the
/// billboard saying so and the check mark following; the preferences' switch changes the
/// `level-loudness` key (read back with `gsettings`), which the player follows, and the next
/// start levels from the first sound.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Loudness levelling in the window", .serialized)
struct LevellingWindowTests {
    typealias Session = ControlsTests.Session

    /// The `levelling` lines `--report` printed so far, in order.
    static func reported(_ app: ReelApp) -> [Bool] {
        let log = (try? String(contentsOfFile: app.log, encoding: .utf8)) ?? ""
        return DrawingPathTests.reported(log, "levelling").compactMap { $0["on"] as? Bool }
    }

    static func waitForReport(_ app: ReelApp, _ lines: [Bool]) throws {
        try Desktop.wait("--report saying levelling \(lines)", log: app.log) { reported(app) == lines }
    }

    /// The Level Loudness item of the Audio submenu shown now (the tree holds the submenus'
    /// items unshown, at no size, while another page shows).
    static func levelItem(_ tree: [AccessibleNode]) -> AccessibleNode? {
        tree.first { $0.name == "Level Loudness" && $0.role.contains("menu item") && $0.width > 0 }
    }

    /// _Audio in the menu open now: its mnemonic opens the submenu, or, where another item
    /// shares the letter, moves to it (then Return opens it). Waits for Level Loudness checked
    /// as `on` says.
    static func openAudioSubmenu(_ s: Session, levelling on: Bool) throws {
        try s.desktop.key("a")
        let tree = try s.app.waitForTree("the Audio submenu, or Audio chosen") { tree in
            levelItem(tree) != nil || tree.contains { $0.name == "Audio" && $0.width > 0 && $0.states.contains("focused") }
        }
        if levelItem(tree) == nil { try s.desktop.key("Return") }
        try s.app.waitForTree("Level Loudness \(on ? "checked" : "not checked") in the Audio submenu") { tree in
            levelItem(tree)?.states.contains("checked") == on
        }
    }

    @Test("Audio ▸ Level Loudness in the main menu and in the picture's menu switches levelling, says so, and is checked while on")
    func menuItem() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try Session(on: desktop, arguments: ["--report"], clip: .longSmall, settings: [ControlsTests.readableMessages])
            #expect(Self.reported(s.app).isEmpty, "levelling reported on at start: \(Self.reported(s.app))")
            // The main menu from the keyboard: F10, then _Audio, then Level _Loudness.
            try s.desktop.key("F10")
            try s.app.waitForElement("the main menu") { $0.role == "menu item" && $0.name == "About Reel" }
            try Self.openAudioSubmenu(s, levelling: false)
            try s.desktop.key("l")
            try s.app.waitForElement("the billboard saying levelling is on") { $0.role == "label" && $0.name == "Loudness levelling on" }
            try Self.waitForReport(s.app, [true])
            #expect(try PreferencesWindowTests.key(desktop, "level-loudness") == "true")

            // The picture's menu holds the same submenu, checked now; its item switches it off.
            try s.desktop.key("shift+F10")
            try s.app.waitForElement("the picture's menu") { $0.role == "menu item" && $0.name == "Picture" }
            try Self.openAudioSubmenu(s, levelling: true)
            try s.desktop.key("l")
            try s.app.waitForElement("the billboard saying levelling is off") { $0.role == "label" && $0.name == "Loudness levelling off" }
            try Self.waitForReport(s.app, [true, false])
            #expect(try PreferencesWindowTests.key(desktop, "level-loudness") == "false")
        }
    }

    @Test("The preferences' Level loudness switch sets level-loudness, the player follows it, and the next start levels at once")
    func preferenceSwitch() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try Session(on: desktop, arguments: ["--report"], clip: .longSmall)
            #expect(try PreferencesWindowTests.key(desktop, "level-loudness") == "false")
            let preferences = try PreferencesWindowTests.openPreferences(s.app)
            let row = try preferences.element(named: "Level loudness", role: "list item")
            try desktop.click(row.x + row.width / 4, row.y + row.height / 2)
            try Desktop.wait("level-loudness on", log: s.app.log) { try PreferencesWindowTests.key(desktop, "level-loudness") == "true" }
            try Self.waitForReport(s.app, [true])
            try desktop.key("Escape")
            s.app.stop()

            // Kept: the next start levels from its first sound (it says so before the first picture).
            let again = try Session(on: desktop, arguments: ["--report"], clip: .longSmall)
            try Self.waitForReport(again.app, [true])
        }
    }
}
