import CGtk
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import ReelApp
import ReelGtk
import Testing

/// What the preferences' rows translate, without a window: the font chooser's descriptions and
/// the key's family name, the colour button's RGBA and the key's "#rrggbb", and the choice
/// rows' ids against the schema (and iconv, for the encodings).
/// Threading: main actor; no window.
@Suite("Preferences: the values the rows translate")
@MainActor
struct PreferenceValueTests {
    // MARK: Font

    @Test("A font chooser's description gives the key its family alone", arguments: [
        ("DejaVu Sans 12", "DejaVu Sans"),
        ("DejaVu Sans Bold Italic 16", "DejaVu Sans"),
        ("Noto Sans Mono Condensed 9", "Noto Sans Mono"),
        ("Cantarell", "Cantarell"),
        ("Liberation Serif, 11", "Liberation Serif"),
    ])
    func familyFromDescription(description: String, family: String) {
        #expect(SubtitleFontName.family(fromDescription: description) == family)
    }

    @Test("A description that names no family gives nothing to keep")
    func noFamily() {
        #expect(SubtitleFontName.family(fromDescription: "") == nil)
        #expect(SubtitleFontName.family(fromDescription: "Bold 12") == nil)
    }

    @Test("Every family the key may hold comes back from its description whole, also one whose last word reads as a style or size",
          arguments: ["DejaVu Sans", "Cantarell", "Font Bold", "Iosevka Light", "Type 3", "Sans"])
    func familyRoundTrip(family: String) {
        let description = SubtitleFontName.description(ofFamily: family)
        #expect(SubtitleFontName.family(fromDescription: description) == family, "\(family) → \(description)")
    }

    // MARK: Colour

    @Test("The key's #rrggbb is the colour button's RGBA and back, for every step of each channel")
    func colorRoundTrip() {
        for step in 0...255 {
            for key in [String(format: "#%02x0000", step), String(format: "#00%02x00", step), String(format: "#0000%02x", step)] {
                #expect(SubtitleColorText.key(from: SubtitleColorText.rgba(fromKey: key)) == key)
            }
        }
    }

    @Test("An RGBA becomes #rrggbb by rounding each channel to the nearest of 256 steps")
    func colorFromRGBA() {
        // 0.5 × 255 = 127.5 → 128; 0.25 × 255 = 63.75 → 64 (0x40); 0.1 × 255 = 25.5 → 26 (0x1a).
        #expect(SubtitleColorText.key(from: GdkRGBA(red: 0.5, green: 0.25, blue: 0.1, alpha: 1)) == "#80401a")
        #expect(SubtitleColorText.key(from: GdkRGBA(red: 1, green: 1, blue: 1, alpha: 0.3)) == "#ffffff")
        #expect(SubtitleColorText.key(from: GdkRGBA(red: 1.2, green: -0.1, blue: 0, alpha: 1)) == "#ff0000")
    }

    @Test("The RGBA for a key is the colour GDK reads in it, and white where the subtitles draw white")
    func colorFromKey() {
        var parsed = GdkRGBA()
        #expect(gdk_rgba_parse(&parsed, "#ff8000") != 0)
        let color = SubtitleColorText.rgba(fromKey: "#FF8000")
        #expect(gdk_rgba_equal(&parsed, [color]) != 0, "\(color) is not GDK's \(parsed)")
        // Text the subtitle style cannot read draws white, so the button shows white.
        for text in ["", "orange", "#ff80", "#gg0000"] {
            let white = SubtitleColorText.rgba(fromKey: text)
            #expect(white.red == 1 && white.green == 1 && white.blue == 1, "\(text)")
        }
    }

    // MARK: Choices

    @Test("The combo rows offer exactly the schema's choices for their keys")
    func schemaChoices() throws {
        let schema = try Self.schemaChoices()
        #expect(PreferenceChoices.resumePlayback.map(\.id) == schema["resume-playback"])
        #expect(PreferenceChoices.videoOutput.map(\.id) == schema["video-output"])
        #expect(PreferenceChoices.subtitleSize.map(\.id) == schema["subtitle-size"])
        for table in [PreferenceChoices.resumePlayback, PreferenceChoices.videoOutput, PreferenceChoices.subtitleSize,
                      PreferenceChoices.subtitleCharset] {
            #expect(Set(table.map(\.title)).count == table.count, "two choices read the same: \(table.map(\.title))")
        }
    }

    @Test("The encodings offered are automatic detection first, then names iconv reads, each once")
    func encodingChoices() {
        let ids = PreferenceChoices.subtitleCharset.map(\.id)
        #expect(ids.first == "")
        #expect(Set(ids).count == ids.count)
        for id in ids.dropFirst() {
            let converter = iconv_open("UTF-8", id)
            #expect(converter != iconv_t(bitPattern: -1), "iconv does not read \(id)")
            if converter != iconv_t(bitPattern: -1) { iconv_close(converter) }
        }
        for common in ["UTF-8", "WINDOWS-1252", "ISO-8859-1", "ISO-8859-2", "ISO-8859-15", "WINDOWS-1250", "WINDOWS-1251",
                       "WINDOWS-1253", "WINDOWS-1255", "WINDOWS-1256", "KOI8-R", "SHIFT_JIS", "EUC-JP", "BIG5", "GB18030",
                       "EUC-KR", "UTF-16"] {
            #expect(ids.contains(common), "\(common) is not offered")
        }
    }

    @Test("The code's setting keys are exactly the schema's keys")
    func settingKeys() throws {
        let collector = ChoiceCollector()
        let parser = XMLParser(data: try Data(contentsOf: Self.schemaFile))
        parser.delegate = collector
        #expect(parser.parse())
        #expect(SettingKey.allCases.map(\.rawValue).sorted() == collector.keys.sorted())
        #expect(ResumeMode.allCases.map(\.rawValue) == collector.choices["resume-playback"])
    }

    static let schemaFile = Repository.file("data/io.github.reel.Reel.gschema.xml")

    /// Each key's `<choices>`, in the schema's order.
    static func schemaChoices() throws -> [String: [String]] {
        let collector = ChoiceCollector()
        let parser = XMLParser(data: try Data(contentsOf: schemaFile))
        parser.delegate = collector
        #expect(parser.parse())
        return collector.choices
    }
}

/// Collects the `<choice value>`s of each `<key>` of a GSettings schema.
/// Threading: used by one parse.
private final class ChoiceCollector: NSObject, XMLParserDelegate {
    var choices: [String: [String]] = [:]
    /// Every key's name, in the schema's order.
    var keys: [String] = []
    private var key = ""

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if name == "key" {
            key = attributes["name"] ?? ""
            keys.append(key)
        }
        if name == "choice", let value = attributes["value"] { choices[key, default: []].append(value) }
    }
}
