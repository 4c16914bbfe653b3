import CGtk
import ReelGtk

/// The subtitle colour as the key keeps it ("#rrggbb", what `PlayerSettings.subtitleStyle`
/// reads) and as a colour button holds it (GdkRGBA, each channel 0…1).
/// Threading: pure functions; any thread.
enum SubtitleColorText {
    /// The colour the key's text draws: what the subtitle renderer reads, white (its default)
    /// where the text is not "#rrggbb".
    static func rgba(fromKey text: String) -> GdkRGBA {
        let rgb = PlayerSettings.rgb(text) ?? 0xFFFFFF
        return GdkRGBA(red: Float((rgb >> 16) & 0xFF) / 255, green: Float((rgb >> 8) & 0xFF) / 255,
                       blue: Float(rgb & 0xFF) / 255, alpha: 1)
    }

    /// "#rrggbb" for a colour, each channel rounded to the nearest of 256 steps (opacity is
    /// not kept: subtitle text is opaque).
    static func key(from color: GdkRGBA) -> String {
        func byte(_ channel: Float) -> Int { Int((max(0, min(1, Double(channel))) * 255).rounded()) }
        let rgb = byte(color.red) << 16 | byte(color.green) << 8 | byte(color.blue)
        let hex = String(rgb, radix: 16)
        return "#" + String(repeating: "0", count: 6 - hex.count) + hex
    }
}
