import CGtk

/// The subtitle font as the key keeps it and the font chooser shows it. The key holds a font
/// family, which the subtitle renderer hands to libass as the style's font name; the chooser
/// speaks Pango font descriptions ("DejaVu Sans Bold 12"). The size is a key of its own and
/// libass picks the weight from the style, so only the family crosses over.
/// Threading: pure functions; any thread (Pango's descriptions are plain values).
enum SubtitleFontName {
    /// The description of `family` alone. Pango quotes what it must: a family whose last word
    /// reads as a style or a size ("Font Bold", "Font 7") gets a trailing comma.
    static func description(ofFamily family: String) -> String {
        guard let description = pango_font_description_new() else { return family }
        defer { pango_font_description_free(description) }
        pango_font_description_set_family(description, family)
        guard let text = pango_font_description_to_string(description) else { return family }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The family named by a font description; nil when it names none.
    static func family(fromDescription text: String) -> String? {
        guard let description = pango_font_description_from_string(text) else { return nil }
        defer { pango_font_description_free(description) }
        guard let family = pango_font_description_get_family(description) else { return nil }
        let name = String(cString: family)
        return name.isEmpty ? nil : name
    }
}
