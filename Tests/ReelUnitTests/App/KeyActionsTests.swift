import CGtk
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import ReelApp
import Testing

/// The window's keys are named actions in one table, and the shortcuts window people read
/// (data/ui/shortcuts.ui) lists exactly those keys. Accelerators are compared as GTK parses
/// them (`<Primary>`, case and spelling variants come out the same).
/// Threading: main actor; no window.
@Suite("Keys: the action table and the shortcuts window")
@MainActor
struct KeyActionsTests {
    static let shortcutsFile = Repository.file("data/ui/shortcuts.ui")

    /// GTK's own spelling of an accelerator; nil when GTK cannot parse it.
    static func canonical(_ accelerator: String) -> String? {
        var key: guint = 0
        var modifiers = GdkModifierType(rawValue: 0)
        guard gtk_accelerator_parse(accelerator, &key, &modifiers) != 0, key != 0 else { return nil }
        return gtk_accelerator_name(key, modifiers).map { String(cString: $0) }
    }

    /// Every accelerator the shortcuts window shows (each row may show several, space-separated).
    static func shortcutsWindowKeys() throws -> [String] {
        let parser = AcceleratorCollector()
        let xml = XMLParser(data: try Data(contentsOf: shortcutsFile))
        xml.delegate = parser
        #expect(xml.parse(), "shortcuts.ui does not parse")
        return parser.accelerators.flatMap { $0.split(separator: " ").map(String.init) }
    }

    @Test("Every key is a named action, once; Ctrl+W closes the window")
    func table() {
        let names = KeyAction.window.map(\.name)
        #expect(Set(names).count == names.count, "an action named twice: \(names)")
        let all = KeyAction.all.flatMap { entry in entry.accelerators.map { (entry.action, $0) } }
        for (action, accelerator) in all {
            #expect(Self.canonical(accelerator) != nil, "\(action): GTK cannot parse '\(accelerator)'")
        }
        let keys = all.compactMap { Self.canonical($0.1) }
        let twice = Dictionary(grouping: keys, by: { $0 }).filter { $0.value.count > 1 }.keys
        #expect(twice.isEmpty, "one key, two actions: \(twice.sorted())")
        #expect(KeyAction.all.contains { $0.action == "win.close" && $0.accelerators == ["<Control>w"] })
    }

    @Test("The shortcuts window lists exactly the keys of the action table")
    func shortcutsWindowMatches() throws {
        let shown = try Self.shortcutsWindowKeys()
        for accelerator in shown {
            #expect(Self.canonical(accelerator) != nil, "shortcuts.ui: GTK cannot parse '\(accelerator)'")
        }
        let listed = Set(shown.compactMap(Self.canonical))
        let bound = Set(KeyAction.all.flatMap(\.accelerators).compactMap(Self.canonical))
        #expect(bound.subtracting(listed).isEmpty, "keys with an action the shortcuts window does not show: \(bound.subtracting(listed).sorted())")
        #expect(listed.subtracting(bound).isEmpty, "keys the shortcuts window shows that no action has: \(listed.subtracting(bound).sorted())")
    }
}

/// The `accelerator` properties of a GtkBuilder file.
private final class AcceleratorCollector: NSObject, XMLParserDelegate {
    var accelerators: [String] = []
    private var inAccelerator = false
    private var text = ""

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        inAccelerator = name == "property" && attributes["name"] == "accelerator"
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inAccelerator { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if inAccelerator, name == "property" { accelerators.append(text.trimmingCharacters(in: .whitespaces)) }
        inAccelerator = false
    }
}
