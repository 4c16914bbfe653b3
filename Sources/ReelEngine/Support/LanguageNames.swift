import Foundation

/// Names, in the person's language, for the language codes found in media tags and file names
/// (ISO 639-1 and 639-2, bibliographic and terminology forms); a code the table lacks gets its
/// English name. Threading: pure functions.
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

    // Translators: language names, as the audio and subtitle menus show them.
    private static let pairs: [(String, String, [String])] = [
        ("en", tr("English"), ["eng"]), ("fr", tr("French"), ["fre", "fra"]), ("de", tr("German"), ["ger", "deu"]),
        ("es", tr("Spanish"), ["spa"]), ("it", tr("Italian"), ["ita"]), ("pt", tr("Portuguese"), ["por"]),
        ("ru", tr("Russian"), ["rus"]), ("uk", tr("Ukrainian"), ["ukr"]), ("pl", tr("Polish"), ["pol"]),
        ("cs", tr("Czech"), ["cze", "ces"]), ("nl", tr("Dutch"), ["dut", "nld"]), ("sv", tr("Swedish"), ["swe"]),
        ("da", tr("Danish"), ["dan"]), ("no", tr("Norwegian"), ["nor"]), ("fi", tr("Finnish"), ["fin"]),
        ("el", tr("Greek"), ["gre", "ell"]), ("tr", tr("Turkish"), ["tur"]), ("ar", tr("Arabic"), ["ara"]),
        ("he", tr("Hebrew"), ["heb"]), ("hi", tr("Hindi"), ["hin"]), ("zh", tr("Chinese"), ["chi", "zho"]),
        ("ja", tr("Japanese"), ["jpn"]), ("ko", tr("Korean"), ["kor"]), ("hu", tr("Hungarian"), ["hun"]),
        ("ro", tr("Romanian"), ["rum", "ron"]), ("bg", tr("Bulgarian"), ["bul"]), ("sr", tr("Serbian"), ["srp"]),
        ("hr", tr("Croatian"), ["hrv"]), ("sk", tr("Slovak"), ["slo", "slk"]), ("sl", tr("Slovenian"), ["slv"]),
        ("vi", tr("Vietnamese"), ["vie"]), ("th", tr("Thai"), ["tha"]), ("id", tr("Indonesian"), ["ind"]),
        ("fa", tr("Persian"), ["per", "fas"]), ("ca", tr("Catalan"), ["cat"]), ("et", tr("Estonian"), ["est"]),
        ("lv", tr("Latvian"), ["lav"]), ("lt", tr("Lithuanian"), ["lit"]), ("is", tr("Icelandic"), ["ice", "isl"]),
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
