import Foundation
import ReelTestSupport
import Testing

/// Open an Address as a person uses it, over a film that plays: what it refuses it says under
/// the entry and leaves the film alone; Escape closes it, as it closes Reel's other dialogs
/// (those are checked where they are tested: preferences, shortcuts, About).
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Open an Address", .serialized)
struct AddressDialogTests {
    static func shown(_ desktop: Desktop, _ title: String) throws -> Bool {
        try desktop.run(["xdotool", "search", "--onlyvisible", "--name", "^\(title)$"], check: false).status == 0
    }

    /// The Open button's name: GTK 4.8 reads a mnemonic label's button as "_Open Open".
    static func isOpen(_ name: String) -> Bool { name == "Open" || name == "_Open Open" }

    @Test("“not a url” and Enter: the dialog says what is wrong, Open stays insensitive, and the film plays on; Escape closes the dialog")
    func refusesWhatItCannotPlay() throws {
        try SharedDesktop.standard.use { desktop in
            let s = try ControlsTests.Session(on: desktop, clip: .longSmall)
            let title = s.app.title
            try s.desktop.click(s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height / 2)   // focus the window
            try s.desktop.key("ctrl+l")
            try Desktop.wait("the address dialog", timeout: 20) { try Self.shown(desktop, "Open an Address") }
            try s.app.waitForElement("the address entry, focused") {
                $0.role == "text" && $0.name.hasPrefix("Address") && $0.states.contains("focused")
            }
            try desktop.xdotool(["type", "--delay", "20", "not a url"])
            let open = try s.app.waitForElement("Open insensitive while the entry holds no address") {
                $0.role == "push button" && Self.isOpen($0.name) && !$0.states.contains("sensitive")
            }
            try desktop.key("Return")
            try s.app.waitForElement("the message under the entry") {
                $0.role == "label" && $0.name == "Type an address starting with https:// or the full path of a file"
                    && $0.states.contains("visible")
            }
            #expect(try Self.shown(desktop, "Open an Address"), "the dialog went")
            #expect(!open.states.contains("sensitive"))
            // The film was left alone: the same title, playing, its time going on.
            let before = try #require(try s.elapsed())
            try Desktop.wait("the film to play on", timeout: 20) { (try s.elapsed() ?? 0) >= before + 2 }
            #expect(s.app.title == title, "the window now shows \(s.app.title)")
            let tree = try s.app.accessibleTree()
            #expect(tree.contains { $0.name == "Pause" }, "the film stopped playing")
            #expect(!tree.contains { $0.name.contains("not a url") && $0.role == "label" }, "something tried to open it")
            // Editing it into an address clears the message and makes Open sensitive.
            try desktop.key("ctrl+a")
            try desktop.xdotool(["type", "--delay", "20", "https://example.com/film.mp4"])
            try s.app.waitForElement("Open sensitive for an address") {
                $0.role == "push button" && Self.isOpen($0.name) && $0.states.contains("sensitive")
            }
            #expect(try !s.app.accessibleTree().contains { $0.role == "label" && $0.name.hasPrefix("Type an address") && $0.states.contains("visible") })
            try desktop.key("Escape")
            try Desktop.wait("Escape to close the dialog", timeout: 10) { try !Self.shown(desktop, "Open an Address") }
            #expect(s.app.title == title)
        }
    }
}
