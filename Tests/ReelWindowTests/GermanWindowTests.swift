import Foundation
import ReelTestSupport
import Testing

/// Reel in German, as a German-speaking person starts it (LANGUAGE=de, with the C.UTF-8 locale
/// every Debian has) and with the catalogs compiled from po/: `--help`, the window's
/// accessibility tree and the preferences say what po/de.po says, not the English.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Reel in German", .serialized)
struct GermanWindowTests {
    static let desktops = SharedDesktop.standard

    /// po/ compiled the way an installation has it (<dir>/<lang>/LC_MESSAGES/reel.mo), for the
    /// length of `body`, which gets the environment of a German-speaking person's Reel.
    static func inGerman<T>(_ body: ([String: String]) throws -> T) throws -> T {
        try inLanguage("de", body)
    }

    /// The same for any language of po/LINGUAS (LANGUAGE=`language`).
    static func inLanguage<T>(_ language: String, _ body: ([String: String]) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-locale-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for compiled in try TranslationCatalogTests.languages() {
            let folder = "\(dir)/\(compiled)/LC_MESSAGES"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Command.run(["msgfmt", "-o", folder + "/reel.mo", TranslationCatalogTests.path("po/\(compiled).po")])
        }
        return try body(["LANGUAGE": language, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "REEL_LOCALE_DIR": dir])
    }

    /// po/de.po's translation of `english`, which must be another text than the English.
    static func german(_ english: String) throws -> String {
        let catalog = try POFile(path: TranslationCatalogTests.path("po/de.po"))
        let translation = catalog.entries.first { $0.id == english && $0.plural == nil }?.translations.first ?? ""
        #expect(!translation.isEmpty && translation != english, "po/de.po translates “\(english)” as “\(translation)”")
        return translation
    }

    @Test("reel --help with LANGUAGE=de describes the options and the program in German")
    func help() throws {
        let help = try Self.inGerman { try Command.run([ReelApp.binary, "--help"], environment: $0) }
        for english in ["Show the window fullscreen", "Start this many seconds into the first file",
                        "Plays video and sound from files and web addresses. When Reel is already running, the files and options go to its window."] {
            let german = try Self.german(english)
            #expect(help.output.contains(german), "“\(german)” missing from --help:\n\(help.output)")
            #expect(!help.output.contains(english), "“\(english)” still in English in --help:\n\(help.output)")
        }
        #expect(help.output.contains("--start=\(try Self.german("SECONDS"))"), "\(help.output)")
    }

    @Test("With LANGUAGE=de the window's buttons and the preferences have German names")
    func window() throws {
        try Self.inGerman { german in try Self.desktops.use { desktop in
            let app = try ReelApp(on: desktop, arguments: ["--paused", try Fixtures.path(.solidRed)],
                                  environment: german)
            // Marked in Swift (the play button), in window.ui (the open button, the main menu).
            try app.element(named: try Self.german("Play"), role: "push button")
            try app.element(named: try Self.german("Open a file"))
            try app.element(named: try Self.german("Main menu"))

            // The preferences, opened as the main menu and Ctrl+, open them.
            try desktop.run(["gdbus", "call", "--session", "--dest", "io.github.reel.Reel", "--object-path",
                             "/io/github/reel/Reel", "--method", "org.gtk.Actions.Activate", "preferences", "[]", "{}"])
            try app.element(named: try Self.german("Preferences"))
            // Whatever the preferences show first, it is in German: several of its texts are found.
            let template = try TranslationCatalogTests.template()
            let english = template.entries.filter { message in
                message.plural == nil && message.references.contains { $0.hasPrefix("data/ui/preferences.ui:") }
            }.map(\.id)
            let catalog = try POFile(path: TranslationCatalogTests.path("po/de.po"))
            let germanTexts = Set(catalog.entries.filter { english.contains($0.id) }.compactMap(\.translations.first)
                .filter { !english.contains($0) })
            try Desktop.wait("three German texts of the preferences in the accessibility tree", log: app.log, timeout: 20) {
                Set(try app.accessibleTree().map(\.name)).intersection(germanTexts).count >= 3
            }
            app.stop()
        } }
    }
}
