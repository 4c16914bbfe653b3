import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The subtitle preferences: style, preferred languages, encoding, and the track chosen for
/// each file. Threading: main thread only, like `PlayerSettings`.
extension PlayerSettings {
    public func string(_ key: String) -> String { GString.take(g_settings_get_string(settings, key)) ?? "" }
    public func set(_ key: String, _ value: String) { g_settings_set_string(settings, key, value) }

    func strings(_ key: String) -> [String] {
        guard let list = g_settings_get_strv(settings, key) else { return [] }
        defer { g_strfreev(list) }
        var result: [String] = []
        var i = 0
        while let item = list[i] { result.append(String(cString: item)); i += 1 }
        return result
    }

    func set(_ key: String, strings: [String]) {
        var list = strings.map { strdup($0) } + [nil]
        list.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                _ = g_settings_set_strv(settings, key, $0)
            }
        }
        list.forEach { free($0) }
    }

    /// Keys whose change restyles the subtitles.
    static let subtitleStyleKeys: Set<String> = ["subtitle-size", "subtitle-font", "subtitle-color", "subtitle-outline",
                                                 "subtitle-background", "subtitle-position", "subtitle-override-ass"]

    public var subtitleStyle: SubtitleStyle {
        var style = SubtitleStyle()
        style.size = SubtitleStyle.Size(rawValue: string("subtitle-size")) ?? .medium
        let font = string("subtitle-font")
        if !font.isEmpty { style.font = font }
        if let color = Self.rgb(string("subtitle-color")) { style.color = color }
        if !bool("subtitle-outline") { style.outline = 0; style.shadow = 0 }
        style.backgroundBox = bool("subtitle-background")
        style.verticalMargin = double("subtitle-position")
        style.overridesStyledSubtitles = bool("subtitle-override-ass")
        return style
    }

    public var subtitleLanguages: [String] {
        string("subtitle-languages").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    public var audioLanguages: [String] {
        string("audio-languages").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    public var subtitleCharset: String? {
        let value = string("subtitle-charset").trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }

    /// "#rrggbb" (or "rrggbb") as 0xRRGGBB.
    nonisolated static func rgb(_ text: String) -> UInt32? {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 6 else { return nil }
        return UInt32(hex, radix: 16)
    }

    /// The subtitle choice remembered for `media` ("off", "stream:N" or "file:PATH").
    func subtitleChoice(for media: String) -> String? { choice(in: "subtitle-choices", for: media) }

    /// Remembers the choice for `media`, most recent first, for the last 200 files.
    func rememberSubtitleChoice(_ choice: String, for media: String) { remember(choice, in: "subtitle-choices", for: media) }

    /// The audio stream remembered for `media`.
    func audioChoice(for media: String) -> Int? { choice(in: "audio-choices", for: media).flatMap { Int($0) } }
    func rememberAudioChoice(_ index: Int, for media: String) { remember(String(index), in: "audio-choices", for: media) }

    private func choice(in key: String, for media: String) -> String? {
        strings(key).lazy.compactMap { entry -> String? in
            let parts = entry.split(separator: "\t", maxSplits: 1).map(String.init)
            return parts.count == 2 && parts[0] == media ? parts[1] : nil
        }.first
    }

    private func remember(_ choice: String, in key: String, for media: String) {
        let others = strings(key).filter { !$0.hasPrefix(media + "\t") }
        set(key, strings: Array(([media + "\t" + choice] + others).prefix(200)))
    }
}
