import Foundation

/// A gettext catalog (`.po` or `.pot`) read for the tests: each message's context, English text
/// (and plural), translations, flags and source references. Obsolete (`#~`) messages are left out.
/// Threading: a value type.
struct POFile {
    struct Message: Hashable {
        var context: String?
        var id = ""
        var plural: String?
        var translations: [String] = []
        var flags: Set<String> = []
        var references: [String] = []

        /// What identifies a message across catalogs.
        var key: String { [context ?? "", id, plural ?? ""].joined(separator: "\u{4}") }
        var isHeader: Bool { id.isEmpty && context == nil }
    }

    let messages: [Message]

    init(path: String) throws {
        try self.init(text: String(contentsOfFile: path, encoding: .utf8))
    }

    init(text: String) {
        var messages: [Message] = []
        var current = Message()
        var started = false
        // Which string a continuation line ("…") adds to.
        enum Field { case context, id, plural, translation(Int) }
        var field: Field?
        func finish() {
            if started { messages.append(current) }
            current = Message()
            started = false
            field = nil
        }
        var inTranslation: Bool {
            if case .translation = field { return true }
            return false
        }
        func append(_ text: String, to field: Field?) {
            switch field {
            case .context: current.context = (current.context ?? "") + text
            case .id: current.id += text
            case .plural: current.plural = (current.plural ?? "") + text
            case .translation(let n):
                while current.translations.count <= n { current.translations.append("") }
                current.translations[n] += text
            case nil: break
            }
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { finish(); continue }
            if line.hasPrefix("#~") { continue }
            if line.hasPrefix("#") {
                // A comment after a message's strings begins the next message.
                if started, inTranslation { finish() }
                if line.hasPrefix("#,") {
                    current.flags.formUnion(line.dropFirst(2).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                } else if line.hasPrefix("#:") {
                    current.references += line.dropFirst(2).split(separator: " ").map(String.init)
                }
                continue
            }
            let keyword = line.prefix { $0 != " " && $0 != "\"" }
            let rest = String(line.dropFirst(keyword.count)).trimmingCharacters(in: .whitespaces)
            switch keyword {
            case "msgctxt":
                if started, inTranslation { finish() }
                started = true; field = .context; current.context = ""
            case "msgid":
                if started, inTranslation { finish() }
                started = true; field = .id
            case "msgid_plural": field = .plural; current.plural = ""
            case "msgstr": field = .translation(0)
            case _ where keyword.hasPrefix("msgstr["):
                field = .translation(Int(keyword.dropFirst(7).dropLast()) ?? 0)
            case "": break
            default: continue
            }
            append(Self.unquote(rest), to: field)
        }
        finish()
        self.messages = messages
    }

    /// The messages without the header.
    var entries: [Message] { messages.filter { !$0.isHeader } }

    /// A quoted C string's text.
    static func unquote(_ quoted: String) -> String {
        guard quoted.hasPrefix("\""), quoted.hasSuffix("\""), quoted.count >= 2 else { return "" }
        return unescape(String(quoted.dropFirst().dropLast()))
    }

    /// A C (or plain Swift) literal's text, without its quotes: the escapes Reel's marked strings
    /// and gettext's catalogs use.
    static func unescape(_ literal: String) -> String {
        var out = ""
        var escaped = false
        for c in literal {
            if escaped {
                switch c {
                case "n": out.append("\n")
                case "t": out.append("\t")
                default: out.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}
