import Foundation
import ReelTestSupport
import Testing

/// Reel's translations as files: every language complete by gettext's own count, the template
/// made from today's sources, every marked Swift string extracted, and no text for people left
/// unmarked in the GtkBuilder files or passed as a bare literal to GTK in Swift.
/// Threading: each test on its own; they only read the source tree and run gettext's tools.
@Suite("Translation catalogs")
struct TranslationCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func languages() throws -> [String] {
        try String(contentsOfFile: path("po/LINGUAS"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    static func template() throws -> POFile { try POFile(path: path("po/reel.pot")) }

    // MARK: The languages

    @Test("msgfmt --check --check-accelerators --statistics: every language of LINGUAS has every message translated, none fuzzy, each mnemonic kept")
    func complete() throws {
        let languages = try Self.languages()
        #expect(Set(languages).isSuperset(of: ["de", "fr", "es", "it", "pt_BR", "ru", "pl", "nl", "ja", "zh_CN"]),
                "LINGUAS: \(languages)")
        let expected = try Self.template().entries.count
        for language in languages {
            let result = try Command.run(["msgfmt", "--check", "--check-accelerators=_", "--statistics", "-o", "/dev/null",
                                          Self.path("po/\(language).po")], check: false)
            let report = result.errors.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(result.status == 0, "msgfmt --check \(language).po: \(report)")
            // "269 translated messages." alone: any "untranslated" or "fuzzy" part fails.
            let translated = report.range(of: #"^(\d+) translated messages?\.$"#, options: .regularExpression)
                .flatMap { Int(report[$0].prefix { $0.isNumber }) }
            #expect(translated == expected, "\(language).po: \(report) (the template has \(expected) messages)")
        }
    }

    @Test("Each language has exactly the template's messages (msgcmp), translated with the same placeholders")
    func sameMessages() throws {
        let template = try Self.template()
        let keys = Set(template.entries.map(\.key))
        for language in try Self.languages() {
            let file = Self.path("po/\(language).po")
            let compared = try Command.run(["msgcmp", file, Self.path("po/reel.pot")], check: false)
            #expect(compared.status == 0, "\(language).po lacks messages of the template: \(compared.errors)")
            let catalog = try POFile(path: file)
            let extra = Set(catalog.entries.map(\.key)).subtracting(keys)
            #expect(extra.isEmpty, "\(language).po has messages the template does not: \(extra.sorted())")
            #expect(catalog.messages.first?.translations.first?.contains("Plural-Forms: nplurals=") == true,
                    "\(language).po has no Plural-Forms header")
            for message in catalog.entries {
                let wanted = Self.placeholders(in: message.plural ?? message.id)
                // An empty translation is the completeness test's to report.
                for (form, text) in message.translations.enumerated() where !text.isEmpty {
                    let found = Self.placeholders(in: text)
                    // A singular form may say "one" instead of the number; the last form names it.
                    let isLast = form == message.translations.count - 1
                    let fits = message.plural == nil || isLast ? found == wanted : found.isSubset(of: wanted)
                    #expect(fits, "\(language).po: “\(text)” has \(found.sorted()), “\(message.id)” has \(wanted.sorted())")
                }
            }
        }
    }

    /// printf's and Foundation's conversions (%@, %1$@, %ld, %.1f, %g), without %%.
    static func placeholders(in text: String) -> Set<String> {
        let pattern = #"%(\d+\$)?[-+ #0]*\d*(\.\d+)?(ll|l|h)?[@dfgsuxXc]"#
        var found: [String] = []
        var rest = text[...]
        while let range = rest.range(of: pattern, options: .regularExpression) {
            found.append(String(rest[range]))
            rest = rest[range.upperBound...]
        }
        // Several plain %@ are told apart by their order.
        var counts: [String: Int] = [:]
        return Set(found.map { p in counts[p, default: 0] += 1; return "\(p)#\(counts[p]!)" })
    }

    // MARK: The template

    @Test("po/reel.pot is what scripts/update-po.sh makes from today's sources")
    func templateIsCurrent() throws {
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("reel-\(UUID().uuidString).pot").path
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        try Command.run([Self.path("scripts/update-po.sh"), "--output", fresh])
        let made = Set(try POFile(path: fresh).entries.map(\.key))
        let committed = Set(try Self.template().entries.map(\.key))
        let readable = { (keys: Set<String>) in keys.sorted().map { $0.replacingOccurrences(of: "\u{4}", with: " | ") } }
        let new = made.subtracting(committed), gone = committed.subtracting(made)
        #expect(new.isEmpty && gone.isEmpty, """
            po/reel.pot is out of date: run scripts/update-po.sh (then scripts/update-po.sh --merge for the languages).
            New: \(readable(new))
            Gone: \(readable(gone))
            """)
    }

    /// A marked string in Swift: where its literal starts, and its text.
    struct CallSite: Hashable, CustomStringConvertible {
        let file: String
        let line: Int
        let text: String
        var description: String { "\(file):\(line) “\(text)”" }
    }

    static func swiftSources() throws -> [String] {
        let base = path("Sources")
        return try FileManager.default.subpathsOfDirectory(atPath: base).filter { $0.hasSuffix(".swift") }
            .map { "Sources/" + $0 }.sorted()
    }

    static let literal = #""((?:[^"\\\n]|\\.)*)""#

    /// Every `tr("…")` and `trn("…", "…", n)` in the Swift sources, read the way the compiler
    /// sees the literal (not as xgettext does), so that a call xgettext misses shows up.
    static func callSites() throws -> (sites: Set<CallSite>, bare: [String]) {
        var sites = Set<CallSite>()
        var bare: [String] = []
        let call = try NSRegularExpression(pattern: #"(?<![\w.])(trn?)\("#)
        let single = try NSRegularExpression(pattern: #"\G\s*"# + literal)
        let pair = try NSRegularExpression(pattern: #"\G\s*"# + literal + #"\s*,\s*"# + literal)
        for file in try swiftSources() where !file.hasSuffix("ReelMedia/Support/Translation.swift") {
            let text = try String(contentsOfFile: path(file), encoding: .utf8)
            let ns = text as NSString
            for match in call.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let lineStart = ns.lineRange(for: NSRange(location: match.range.location, length: 0))
                if ns.substring(with: lineStart).trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                let after = match.range.location + match.range.length
                let isPlural = ns.substring(with: match.range(at: 1)) == "trn"
                let rest = NSRange(location: after, length: ns.length - after)
                guard let args = (isPlural ? pair : single).firstMatch(in: text, options: .anchored, range: rest) else {
                    bare.append("\(file):\(line(of: match.range.location, in: ns))")
                    continue
                }
                let start = args.range(at: 1).location - 1
                sites.insert(CallSite(file: file, line: line(of: start, in: ns),
                                      text: POFile.unescape(ns.substring(with: args.range(at: 1)))))
                if isPlural {
                    let second = args.range(at: 2).location - 1
                    sites.insert(CallSite(file: file, line: line(of: second, in: ns),
                                          text: POFile.unescape(ns.substring(with: args.range(at: 2)))))
                }
            }
        }
        return (sites, bare)
    }

    static func line(of location: Int, in text: NSString) -> Int {
        text.substring(to: location).reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    @Test("Every tr and trn call in Swift is in the template, at its line (an extraction gap fails), and POTFILES.in lists its file")
    func everyCallExtracted() throws {
        let (sites, bare) = try Self.callSites()
        #expect(bare.isEmpty, "tr and trn take string literals (xgettext reads nothing else): \(bare)")
        #expect(sites.count > 100, "only \(sites.count) marked strings found in Sources")
        var extracted = Set<CallSite>()
        for message in try Self.template().entries {
            for reference in message.references where reference.hasSuffix(".swift") == false && reference.contains(".swift:") {
                let parts = reference.split(separator: ":")
                guard parts.count == 2, let line = Int(parts[1]) else { continue }
                extracted.insert(CallSite(file: String(parts[0]), line: line, text: message.id))
                if let plural = message.plural {
                    extracted.insert(CallSite(file: String(parts[0]), line: line, text: plural))
                }
            }
        }
        // xgettext names a plural message by its singular's line; the plural's own line may differ.
        let pluralsElsewhere = sites.subtracting(extracted).filter { site in
            extracted.contains { $0.file == site.file && $0.text == site.text }
        }
        let missing = sites.subtracting(extracted).subtracting(pluralsElsewhere)
        #expect(missing.isEmpty, "marked in Swift but not in po/reel.pot (run scripts/update-po.sh; if it is then still missing, xgettext misread the file): \(missing.sorted { $0.description < $1.description })")

        let listed = Set(try String(contentsOfFile: Self.path("po/POTFILES.in"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") })
        let withText = Set(sites.map(\.file))
        #expect(withText.subtracting(listed).isEmpty, "add to po/POTFILES.in: \(withText.subtracting(listed).sorted())")
        let swiftListed = listed.filter { $0.hasSuffix(".swift") }
        #expect(swiftListed.subtracting(withText).isEmpty, "po/POTFILES.in lists files without marked text: \(swiftListed.subtracting(withText).sorted())")
        for file in listed { #expect(FileManager.default.fileExists(atPath: Self.path(file)), "po/POTFILES.in: no \(file)") }
        let uiFiles = try FileManager.default.contentsOfDirectory(atPath: Self.path("data/ui")).filter { $0.hasSuffix(".ui") }
        for ui in uiFiles { #expect(listed.contains("data/ui/\(ui)"), "po/POTFILES.in lacks data/ui/\(ui)") }
        #expect(listed.contains("data/io.github.reel.Reel.desktop") && listed.contains("data/io.github.reel.Reel.metainfo.xml"))
    }

    // MARK: Nothing left unmarked

    /// Texts that read the same in every language: times and speeds as numbers, Reel's name,
    /// an example address.
    static func needsNoTranslation(_ text: String) -> Bool {
        text.range(of: #"^[0-9:.,×\s]*$"#, options: .regularExpression) != nil
            || text == "Reel" || text.hasPrefix("https://")
    }

    @Test("Every text of the GtkBuilder files (labels, titles, tooltips, placeholders, descriptions, items) is translatable=\"yes\"")
    func builderFilesMarked() throws {
        let element = try NSRegularExpression(pattern:
            #"<(property|attribute) name="(label|title|subtitle|tooltip-text|tooltip-markup|placeholder-text|text|description|heading|body|secondary-text|accessible-name)"([^>]*)>([^<]*)</|<item( [^>]*)?>([^<]*)</item>"#)
        var unmarked: [String] = []
        let folder = Self.path("data/ui")
        for ui in try FileManager.default.contentsOfDirectory(atPath: folder).filter({ $0.hasSuffix(".ui") }).sorted() {
            let text = try String(contentsOfFile: folder + "/" + ui, encoding: .utf8)
            let ns = text as NSString
            for match in element.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let isItem = match.range(at: 6).location != NSNotFound
                let attributes = ns.substring(with: match.range(at: isItem ? 5 : 3).location == NSNotFound
                                              ? NSRange(location: 0, length: 0) : match.range(at: isItem ? 5 : 3))
                let value = ns.substring(with: match.range(at: isItem ? 6 : 4)).trimmingCharacters(in: .whitespaces)
                if value.isEmpty || attributes.contains(#"translatable="yes""#) || Self.needsNoTranslation(value) { continue }
                unmarked.append("data/ui/\(ui):\(Self.line(of: match.range.location, in: ns)) “\(value)”")
            }
        }
        #expect(unmarked.isEmpty, "texts for people without translatable=\"yes\": \(unmarked)")
    }

    /// Calls whose string arguments people read: GTK's and libadwaita's text setters, Reel's
    /// accessible names, notices, the billboard, the status page and the options of --help
    /// (`warn?` is the subtitle controller's notice; a plain `warn(` writes to standard error).
    static let textCalls = [
        "gtk_label_new", "gtk_label_set_text", "gtk_label_set_label", "gtk_label_set_markup",
        "gtk_widget_set_tooltip_text", "gtk_widget_set_tooltip_markup", "gtk_button_new_with_label",
        "gtk_button_new_with_mnemonic", "gtk_button_set_label", "gtk_check_button_new_with_label",
        "gtk_check_button_set_label", "gtk_window_set_title", "gtk_file_chooser_native_new",
        "gtk_file_filter_set_name", "gtk_progress_bar_set_text", "gtk_entry_set_placeholder_text",
        "gtk_application_inhibit", "g_menu_item_new", "g_menu_append", "g_menu_item_set_label",
        "g_application_set_option_context_summary", "g_application_set_option_context_parameter_string",
        "adw_toast_new", "adw_toast_set_title", "adw_toast_set_button_label", "adw_status_page_set_title",
        "adw_status_page_set_description", "adw_window_title_new", "adw_window_title_set_title",
        "adw_window_title_set_subtitle", "adw_about_window_set_comments", "adw_about_window_set_developer_name",
        "adw_about_window_set_copyright", "adw_preferences_page_set_title", "adw_preferences_group_set_title",
        "adw_preferences_group_set_description", "adw_preferences_row_set_title", "adw_action_row_set_subtitle",
        "adw_message_dialog_new", "adw_message_dialog_add_response",
        "Accessibility.setLabel", "Accessibility.setDescription", "notify", "say", "warn?", "show", "showError",
        "NoticeAction", "Entry",
    ]

    /// String literals among a call's arguments that are not inside `tr(…)` or `trn(…)` and that
    /// read as text (an upper-case letter or a space: names of icons, actions and settings
    /// have neither).
    static func bareTexts(in arguments: Substring) -> [String] {
        var found: [String] = []
        var i = arguments.startIndex
        while i < arguments.endIndex {
            let c = arguments[i]
            if c == "\"" {
                let (content, end) = readLiteral(arguments, from: arguments.index(after: i))
                let words = content.text
                if words.range(of: #"[A-Z ]"#, options: .regularExpression) != nil,
                   !needsNoTranslation(words.trimmingCharacters(in: .whitespaces)) {
                    found.append(words)
                }
                found += content.nested
                i = end
                continue
            }
            if arguments[i...].hasPrefix("tr(") || arguments[i...].hasPrefix("trn("),
               i == arguments.startIndex || !(arguments[arguments.index(before: i)].isLetter || arguments[arguments.index(before: i)] == "_") {
                i = skipParentheses(arguments, from: arguments.index(i, offsetBy: arguments[i...].hasPrefix("tr(") ? 2 : 3))
                continue
            }
            i = arguments.index(after: i)
        }
        return found
    }

    /// A literal's text (interpolations left out) and the bare texts inside its interpolations.
    static func readLiteral(_ s: Substring, from start: Substring.Index) -> ((text: String, nested: [String]), Substring.Index) {
        var text = ""
        var nested: [String] = []
        var i = start
        while i < s.endIndex {
            let c = s[i]
            if c == "\\" {
                let next = s.index(after: i)
                if next < s.endIndex, s[next] == "(" {
                    let end = skipParentheses(s, from: next)
                    nested += bareTexts(in: s[s.index(after: next)..<s.index(before: end)])
                    i = end
                    continue
                }
                i = s.index(i, offsetBy: 2, limitedBy: s.endIndex) ?? s.endIndex
                continue
            }
            if c == "\"" { return ((text, nested), s.index(after: i)) }
            text.append(c)
            i = s.index(after: i)
        }
        return ((text, nested), s.endIndex)
    }

    /// The index just after the parenthesis that closes the one at `open`, literals skipped.
    static func skipParentheses(_ s: Substring, from open: Substring.Index) -> Substring.Index {
        var depth = 0
        var i = open
        while i < s.endIndex {
            switch s[i] {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return s.index(after: i) }
            case "\"":
                i = readLiteral(s, from: s.index(after: i)).1
                continue
            default: break
            }
            i = s.index(after: i)
        }
        return s.endIndex
    }

    /// The Swift files whose texts are for people: the engine's messages, the widget and the app.
    static func peopleFacingSources() throws -> [String] {
        try swiftSources().filter { file in
            ["Sources/ReelMedia/", "Sources/ReelEngine/", "Sources/ReelGtk/", "Sources/ReelApp/"].contains { file.hasPrefix($0) }
        }
    }

    static func unmarkedTexts(in text: String, file: String) throws -> [String] {
        let names = textCalls.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
        let call = try NSRegularExpression(pattern: #"(?<![\w.])(?:\w+\??\.)*(?:"# + names + #")\??\("#)
        let ns = text as NSString
        var found: [String] = []
        for match in call.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let lineRange = ns.lineRange(for: NSRange(location: match.range.location, length: 0))
            let line = ns.substring(with: lineRange).trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("//") || line.hasPrefix("func ") || line.contains(" func ") { continue }
            let body = text[...]
            let open = body.index(body.startIndex, offsetBy: match.range.location + match.range.length - 1)
            let close = skipParentheses(body, from: open)
            for bare in bareTexts(in: body[body.index(after: open)..<close]) {
                found.append("\(file):\(Self.line(of: match.range.location, in: ns)) “\(bare)”")
            }
        }
        return found
    }

    @Test("No Swift string literal reaches a text for people (GTK and libadwaita setters, accessible names, notices, the billboard) without tr or trn")
    func swiftTextsMarked() throws {
        var unmarked: [String] = []
        for file in try Self.peopleFacingSources() {
            unmarked += try Self.unmarkedTexts(in: String(contentsOfFile: Self.path(file), encoding: .utf8), file: file)
        }
        #expect(unmarked.isEmpty, "mark with tr(…) or trn(…), or a format made of one: \(unmarked)")
    }

    @Test("The scan of Swift sources finds bare texts in calls, interpolations and over several lines, and passes marked ones")
    func scanFindsBareTexts() throws {
        let sample = """
            gtk_widget_set_tooltip_text(button, "Queue")
            Accessibility.setLabel(remove, "Remove \\(name)")
            window?.notify("Cannot schedule a break from “\\(text)”", actions: [], seconds: 3)
            say?(String(format: tr("Audio: %@"), label), true)
            show(muted ? tr("Muted") : String(format: tr("Volume %ld %%"), percent), icon: "audio-volume-muted-symbolic")
            gtk_file_chooser_native_new(tr("Save Picture"), parent.cast(),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, tr("_Save"), "_Cancel")
            let off = g_menu_item_new(to?.displayName ?? "Off", "win.subtitle-track")
            gtk_window_set_title(window.cast(), text == "Reel" ? "Reel" : String(format: tr("%@ – Reel"), text))
            gtk_label_set_text(label.cast(), "\\(text ?? "Nothing to play")")
            """
        let found = try Self.unmarkedTexts(in: sample, file: "sample")
        #expect(found == ["sample:1 “Queue”", "sample:2 “Remove ”", "sample:3 “Cannot schedule a break from “””",
                          "sample:6 “_Cancel”", "sample:8 “Off”", "sample:10 “Nothing to play”"], "\(found)")
    }
}
