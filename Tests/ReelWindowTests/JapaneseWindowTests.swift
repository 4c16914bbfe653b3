import Foundation
import ReelTestSupport
import Testing

/// Reel in Japanese (LANGUAGE=ja with the catalogs compiled from po/): the window's names in the
/// accessibility tree are po/ja.po's, and the main menu's mnemonics, written GNOME's Japanese
/// way as a bracketed letter (字幕(_E)), work from the keyboard.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Reel in Japanese", .serialized)
struct JapaneseWindowTests {
    static let desktops = SharedDesktop.standard

    /// po/ja.po's translation of `english`, which must be another text than the English.
    static func japanese(_ english: String) throws -> String {
        let catalog = try POFile(path: TranslationCatalogTests.path("po/ja.po"))
        let translation = catalog.entries.first { $0.id == english && $0.plural == nil }?.translations.first ?? ""
        #expect(!translation.isEmpty && translation != english, "po/ja.po translates “\(english)” as “\(translation)”")
        return translation
    }

    @Test("With LANGUAGE=ja the buttons and the main menu have Japanese names, and 字幕(_E)'s letter opens its submenu")
    func window() throws {
        try GermanWindowTests.inLanguage("ja") { japaneseEnvironment in try Self.desktops.use { desktop in
            let app = try ReelApp(on: desktop, arguments: ["--paused", try Fixtures.path(.solidRed)],
                                  environment: japaneseEnvironment)
            try app.element(named: try Self.japanese("Play"), role: "push button")
            try app.element(named: try Self.japanese("Open a file"))
            try app.element(named: try Self.japanese("Main menu"))

            // The main menu from the keyboard (F10); an accessible name leaves out the underscore.
            try desktop.key("F10")
            let about = try Self.japanese("A_bout Reel").replacingOccurrences(of: "_", with: "")
            try app.waitForElement("the main menu in Japanese") { $0.role == "menu item" && $0.name == about }
            // The letter after the underscore alone opens the submenu when no other item of the
            // menu has it; with a clash it would only move the focus to the first of them.
            let subtitles = try Self.japanese("Subtitl_es")
            #expect(subtitles.hasSuffix("(_E)"), "Subtitl_es is “\(subtitles)” in po/ja.po")
            try desktop.key("e")
            let addFile = try Self.japanese("_Add Subtitle File…").replacingOccurrences(of: "_", with: "")
            try app.waitForElement("the Subtitles submenu, opened by its mnemonic") {
                $0.role == "menu item" && $0.name == addFile && $0.width > 0
            }
            app.stop()
        } }
    }

    @Test("With LANGUAGE=ja the info card says in Japanese why the processor draws, and the sound's speakers")
    func infoCard() throws {
        try GermanWindowTests.inLanguage("ja") { japaneseEnvironment in try Self.desktops.use { desktop in
            // The CPU path asked for by the environment variable: the card says so.
            let app = try ReelApp(on: desktop, arguments: ["--paused", try Fixtures.path(.longSmall)],
                                  environment: japaneseEnvironment.merging(["REEL_VIDEO_OUTPUT": "software"]) { $1 })
            defer { app.stop() }
            try app.element(named: try Self.japanese("Play"), role: "push button")
            try desktop.key("i")
            let drawing = String(format: try Self.japanese("by the processor: %@"), try Self.japanese("chosen by REEL_VIDEO_OUTPUT"))
            let stereo = try Self.japanese("stereo")
            var text = ""
            do {
                try app.waitForElement("the info card's text") { node in
                    guard node.role == "label", node.name.contains(drawing) else { return false }
                    text = node.name
                    return true
                }
            } catch {
                Issue.record("no label of the card says “\(drawing)”: \(try app.accessibleTree().filter { $0.role == "label" }.map(\.name))")
                throw error
            }
            #expect(text.contains("Hz, \(stereo)"), "the sound's line: \(text)")
            #expect(!text.contains("chosen by") && !text.contains("stereo"), "English in the card: \(text)")
        } }
    }
}
