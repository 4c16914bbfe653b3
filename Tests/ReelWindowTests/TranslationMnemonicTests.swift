import Foundation
import ReelTestSupport
import Testing

/// Mnemonics (the letter after `_`, reached with Alt) are unique where they are offered together,
/// in English and in every language of po/LINGUAS: each level of window.ui's menus (a submenu's
/// label is an item of its parent's level; sections do not make levels), with the items Swift
/// puts into its empty sections, and each other GtkBuilder file (a dialog or a panel) as a whole.
/// Two letters alike would leave one item out of reach of the keyboard.
/// Threading: each test on its own; they only read data/ui and po/.
@Suite("Translation mnemonics")
struct TranslationMnemonicTests {
    /// What Swift puts into window.ui's empty sections (`<section id="…"/>`): each inner list is
    /// one place that shows one of its texts at a time (Pause or Play), so they may share a letter.
    static let filledSections: [String: [[String]]] = [
        // LoopMenu.swift: one item, named for the next step of the A-B loop.
        "loop-items": [["Set _Loop Start", "Set _Loop End", "Clear _Loop"]],
        "context-loop-items": [["Set _Loop Start", "Set _Loop End", "Clear _Loop"]],
        // PictureMenu.swift: named for what they do now.
        "context-now-items": [["_Pause", "_Play"], ["Leave _Fullscreen", "_Fullscreen"],
                              ["_Deinterlace: Auto", "_Deinterlace: On", "_Deinterlace: Off"]],
        // PictureMenu.swift: the main menu's submenus again.
        "context-submenus": [["Playback _Speed"], ["Subtitl_es"], ["_Audio"], ["Pic_ture"]],
    ]

    /// One place's texts and where it is, for the failure message.
    struct Level {
        var name: String
        var items: [[String]] = []
    }

    /// window.ui's menus, level by level.
    static func menuLevels() throws -> [Level] {
        let text = try String(contentsOfFile: TranslationCatalogTests.path("data/ui/window.ui"), encoding: .utf8)
        var levels: [Level] = []
        var stack: [Int] = []
        var opened = ""
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if let menu = line.firstMatch(of: /^<menu id="([^"]+)"/) {
                levels.append(Level(name: String(menu.1)))
                stack.append(levels.count - 1)
            } else if line.hasPrefix("<submenu") {
                opened = "submenu"
            } else if line.hasPrefix("<item") {
                opened = "item"
            } else if line.hasPrefix("<section") {
                opened = "section"
                if let filled = line.firstMatch(of: /^<section id="([^"]+)"\/>/), let current = stack.last {
                    levels[current].items += filledSections[String(filled.1)] ?? []
                }
            } else if line.hasPrefix("</submenu>") || line.hasPrefix("</menu>") {
                stack.removeLast()
            } else if let label = line.firstMatch(of: /^<attribute name="label" translatable="yes">([^<]*)</), let current = stack.last {
                let text = String(label.1)
                if opened == "submenu" {
                    levels[current].items.append([text])
                    levels.append(Level(name: "\(levels[current].name) › \(text)"))
                    stack.append(levels.count - 1)
                } else if opened == "item" {
                    levels[current].items.append([text])
                }
                opened = ""
            }
        }
        return levels
    }

    /// Each other GtkBuilder file's translatable labels.
    static func dialogLevels() throws -> [Level] {
        let folder = TranslationCatalogTests.path("data/ui")
        return try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".ui") && $0 != "window.ui" }.sorted().map { file in
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                let labels = text.matches(of: /<property name="label" translatable="yes">([^<]*)</).map { [String($0.1)] }
                return Level(name: file, items: labels)
            }
    }

    /// The letter after the underscore, lower-cased.
    static func mnemonic(_ text: String) -> Character? {
        guard let underscore = text.firstIndex(of: "_"), text.index(after: underscore) < text.endIndex else { return nil }
        return Character(text[text.index(after: underscore)].lowercased())
    }

    /// The places in `levels` where two items share a letter, with `translate` applied.
    static func clashes(in levels: [Level], _ translate: (String) -> String) -> [String] {
        var found: [String] = []
        for level in levels {
            let letters = level.items.map { alternatives in
                alternatives.map(translate).compactMap { text in mnemonic(text).map { (text, $0) } }
            }
            for (i, a) in letters.enumerated() {
                for b in letters[(i + 1)...] {
                    for (textA, letterA) in a {
                        for (textB, letterB) in b where letterA == letterB {
                            found.append("\(level.name): “\(textA)” and “\(textB)” both on \(letterA)")
                        }
                    }
                }
            }
        }
        return found
    }

    @Test("window.ui's menus are read level by level, with the items Swift adds")
    func levelsRead() throws {
        let levels = try Self.menuLevels()
        let main = try #require(levels.first { $0.name == "main-menu" })
        #expect(main.items.contains(["_Open File…"]) && main.items.contains(["A_bout Reel"])
                && main.items.contains(["Set _Loop Start", "Set _Loop End", "Clear _Loop"]), "\(main.items)")
        #expect(!main.items.contains(["_Mirror"]), "a submenu's item counted in the main menu: \(main.items)")
        #expect(levels.contains { $0.name == "main-menu › Pic_ture" && $0.items.contains(["_Mirror"]) }, "\(levels.map(\.name))")
        let context = try #require(levels.first { $0.name == "context-menu" })
        #expect(context.items.contains(["_Pause", "_Play"]) && context.items.contains(["Subtitl_es"]), "\(context.items)")
        // The check itself: a clash is found, alternatives are not one.
        let sample = [Level(name: "sample", items: [["_Audio"], ["A_bout"], ["_About"], ["_Pause", "_Play"]])]
        #expect(Self.clashes(in: sample, { $0 }) == ["sample: “_Audio” and “_About” both on a"], "\(Self.clashes(in: sample, { $0 }))")
    }

    @Test("No two items of a menu level or a dialog share a mnemonic, in English and in every language")
    func unique() throws {
        let levels = try Self.menuLevels() + Self.dialogLevels()
        #expect(Self.clashes(in: levels, { $0 }).isEmpty, "English: \(Self.clashes(in: levels, { $0 }))")
        for language in try TranslationCatalogTests.languages() {
            let catalog = try POFile(path: TranslationCatalogTests.path("po/\(language).po"))
            var translations: [String: String] = [:]
            for message in catalog.entries where message.plural == nil && message.context == nil {
                translations[message.id] = message.translations.first
            }
            let found = Self.clashes(in: levels) { translations[$0].flatMap { $0.isEmpty ? nil : $0 } ?? $0 }
            #expect(found.isEmpty, "po/\(language).po: \(found)")
        }
    }
}
