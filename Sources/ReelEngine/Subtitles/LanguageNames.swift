import Foundation

/// English names for the language codes found in media tags and file names (ISO 639-1 and
/// 639-2, bibliographic and terminology forms). Threading: pure functions.
public enum LanguageNames {
    /// The language's name, or nil for no code or "und"; unknown codes are returned as they are.
    public static func name(for code: String?) -> String? {
        guard let code = code?.lowercased().trimmingCharacters(in: .whitespaces), !code.isEmpty,
              code != "und", code != "zxx", code != "mis" else { return nil }
        let base = String(code.split(separator: "-").first ?? Substring(code))
        if let name = table[base] { return name }
        if let name = Locale(identifier: "en").localizedString(forLanguageCode: base), name.lowercased() != base {
            return name
        }
        return code
    }

    /// The two-letter code for a code in any of the forms, to compare preferences with tags.
    public static func normalized(_ code: String?) -> String? {
        guard let code = code?.lowercased(), !code.isEmpty else { return nil }
        let base = String(code.split(separator: "-").first ?? Substring(code))
        if base.count == 2 { return base }
        return threeToTwo[base] ?? base
    }

    /// Whether a file-name part such as "en", "eng" or "pt-BR" is a language code.
    static func isCode(_ text: String) -> Bool {
        let lower = text.lowercased()
        let base = String(lower.split(separator: "-").first ?? Substring(lower))
        return table[base] != nil
    }

    private static let pairs: [(String, String, [String])] = [
        ("en", "English", ["eng"]), ("fr", "French", ["fre", "fra"]), ("de", "German", ["ger", "deu"]),
        ("es", "Spanish", ["spa"]), ("it", "Italian", ["ita"]), ("pt", "Portuguese", ["por"]),
        ("ru", "Russian", ["rus"]), ("uk", "Ukrainian", ["ukr"]), ("pl", "Polish", ["pol"]),
        ("cs", "Czech", ["cze", "ces"]), ("nl", "Dutch", ["dut", "nld"]), ("sv", "Swedish", ["swe"]),
        ("da", "Danish", ["dan"]), ("no", "Norwegian", ["nor"]), ("fi", "Finnish", ["fin"]),
        ("el", "Greek", ["gre", "ell"]), ("tr", "Turkish", ["tur"]), ("ar", "Arabic", ["ara"]),
        ("he", "Hebrew", ["heb"]), ("hi", "Hindi", ["hin"]), ("zh", "Chinese", ["chi", "zho"]),
        ("ja", "Japanese", ["jpn"]), ("ko", "Korean", ["kor"]), ("hu", "Hungarian", ["hun"]),
        ("ro", "Romanian", ["rum", "ron"]), ("bg", "Bulgarian", ["bul"]), ("sr", "Serbian", ["srp"]),
        ("hr", "Croatian", ["hrv"]), ("sk", "Slovak", ["slo", "slk"]), ("sl", "Slovenian", ["slv"]),
        ("vi", "Vietnamese", ["vie"]), ("th", "Thai", ["tha"]), ("id", "Indonesian", ["ind"]),
        ("fa", "Persian", ["per", "fas"]), ("ca", "Catalan", ["cat"]), ("et", "Estonian", ["est"]),
        ("lv", "Latvian", ["lav"]), ("lt", "Lithuanian", ["lit"]), ("is", "Icelandic", ["ice", "isl"]),
    ]
    private static let table: [String: String] = {
        var t: [String: String] = [:]
        for (two, name, threes) in pairs { t[two] = name; for c in threes { t[c] = name } }
        return t
    }()
    private static let threeToTwo: [String: String] = {
        var t: [String: String] = [:]
        for (two, _, threes) in pairs { for c in threes { t[c] = two } }
        return t
    }()
}
