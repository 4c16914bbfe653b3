import Foundation
import ReelTestSupport
import Testing

/// Each language's plural rule as gettext runs it: the Plural-Forms header of po/<lang>.po,
/// evaluated by Python's gettext (a reader of the header other than Reel's), must pick the form
/// the language's grammar wants for each count, and every plural message must have exactly that
/// many forms. A language of po/LINGUAS missing from `expected` fails until its rule is stated.
/// Threading: each test on its own; they only read po/ and run python3.
@Suite("Translation plural forms")
struct TranslationPluralTests {
    /// The counts tried, and for each rule the form index each count takes (CLDR's categories in
    /// gettext's order of forms: one, few, many for the Slavic languages).
    static let counts = [0, 1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 112, 122]
    static let oneOther = [1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    static let zeroOneOther = [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    static let onlyOne = [Int](repeating: 0, count: counts.count)
    static let russian = [2, 0, 1, 1, 1, 2, 2, 2, 2, 0, 1, 2, 0, 2, 2, 1]
    static let polish = [2, 0, 1, 1, 1, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 1]
    static let expected: [String: [Int]] = [
        "de": oneOther, "es": oneOther, "it": oneOther, "nl": oneOther,
        "fr": zeroOneOther, "pt_BR": zeroOneOther,
        "ru": russian, "pl": polish,
        "ja": onlyOne, "zh_CN": onlyOne,
    ]

    /// The value of the header's `name: value;` field.
    static func header(_ catalog: POFile) -> String {
        catalog.messages.first { $0.isHeader }?.translations.first ?? ""
    }

    @Test("Each language's Plural-Forms picks the right form for 0, 1, 2, 5, 11, 21, 22, 111…, and every plural message has that many forms")
    func pluralRules() throws {
        for language in try TranslationCatalogTests.languages() {
            let catalog = try POFile(path: TranslationCatalogTests.path("po/\(language).po"))
            let line = Self.header(catalog).split(separator: "\n").first { $0.hasPrefix("Plural-Forms:") } ?? ""
            let count = line.firstMatch(of: /nplurals=(\d+)/).flatMap { Int($0.1) }
            let rule = line.firstMatch(of: /plural=([^;]+);/).map { String($0.1) } ?? ""
            guard let wanted = Self.expected[language] else {
                Issue.record("po/\(language).po: state its plural rule in TranslationPluralTests.expected")
                continue
            }
            #expect(count == (wanted.max() ?? 0) + 1, "po/\(language).po: \(line)")
            let script = "import gettext, sys; f = gettext.c2py(sys.argv[1]); print(' '.join(str(f(int(n))) for n in sys.argv[2:]))"
            let result = try Command.run(["python3", "-c", script, rule] + Self.counts.map(String.init), check: false)
            let picked = result.output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(result.status == 0 && picked == wanted,
                    "po/\(language).po: for \(Self.counts) its rule “\(rule)” picks \(picked) \(result.errors), the language wants \(wanted)")
            for message in catalog.entries where message.plural != nil {
                #expect(message.translations.count == count && message.translations.allSatisfy { !$0.isEmpty },
                        "po/\(language).po: “\(message.id)” wants \(count ?? 0) forms, none empty: \(message.translations)")
            }
        }
    }
}
