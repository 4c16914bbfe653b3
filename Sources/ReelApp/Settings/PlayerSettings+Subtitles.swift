import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The subtitle preferences: style, preferred languages, encoding, and the track chosen for
/// each file. Threading: main thread only, like `PlayerSettings`.
extension PlayerSettings {
    func strings(_ key: SettingKey) -> [String] {
        guard let list = g_settings_get_strv(settings, key.rawValue) else { return [] }
        defer { g_strfreev(list) }
        var result: [String] = []
        var i = 0
        while let item = list[i] { result.append(String(cString: item)); i += 1 }
        return result
    }

    func set(_ key: SettingKey, strings: [String]) {
        var list = strings.map { strdup($0) } + [nil]
        list.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                _ = g_settings_set_strv(settings, key.rawValue, $0)
            }
        }
        list.forEach { free($0) }
    }

    /// Keys whose change restyles the subtitles.
    static let subtitleStyleKeys: Set<SettingKey> = [.subtitleSize, .subtitleFont, .subtitleColor, .subtitleOutline,
                                                 .subtitleBackground, .subtitlePosition, .subtitleOverrideAss]

    public var subtitleStyle: SubtitleStyle {
        var style = SubtitleStyle()
        style.size = SubtitleStyle.Size(rawValue: string(.subtitleSize)) ?? .medium
        let font = string(.subtitleFont)
        if !font.isEmpty { style.font = font }
        if let color = Self.rgb(string(.subtitleColor)) { style.color = color }
        if !bool(.subtitleOutline) { style.outline = 0; style.shadow = 0 }
        style.backgroundBox = bool(.subtitleBackground)
        style.verticalMargin = double(.subtitlePosition)
        style.overridesStyledSubtitles = bool(.subtitleOverrideAss)
        return style
    }

    public var subtitleLanguages: [String] {
        string(.subtitleLanguages).split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    public var audioLanguages: [String] {
        string(.audioLanguages).split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    public var subtitleCharset: String? {
        let value = string(.subtitleCharset).trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }

    /// "#rrggbb" (or "rrggbb") as 0xRRGGBB.
    nonisolated static func rgb(_ text: String) -> UInt32? {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 6 else { return nil }
        return UInt32(hex, radix: 16)
    }

    /// The subtitle choice remembered for `media` ("off", "stream:N" or "file:PATH").
    func subtitleChoice(for media: String) -> String? { choice(in: .subtitleChoices, for: media) }

    /// Remembers the choice for `media`, most recent first, for the last 200 files.
    func rememberSubtitleChoice(_ choice: String, for media: String) { remember(choice, in: .subtitleChoices, for: media) }

    /// The audio stream remembered for `media`.
    func audioChoice(for media: String) -> Int? { choice(in: .audioChoices, for: media).flatMap { Int($0) } }
    func rememberAudioChoice(_ index: Int, for media: String) { remember(String(index), in: .audioChoices, for: media) }

    private func choice(in key: SettingKey, for media: String) -> String? {
        strings(key).lazy.compactMap { entry -> String? in
            let parts = entry.split(separator: "\t", maxSplits: 1).map(String.init)
            return parts.count == 2 && parts[0] == media ? parts[1] : nil
        }.first
    }

    private func remember(_ choice: String, in key: SettingKey, for media: String) {
        let others = strings(key).filter { !$0.hasPrefix(media + "\t") }
        set(key, strings: Array(([media + "\t" + choice] + others).prefix(200)))
    }
}
