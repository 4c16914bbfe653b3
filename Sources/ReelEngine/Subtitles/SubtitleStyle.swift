import Foundation

/// How plain subtitles (SRT, WebVTT, mov_text, ...) look, and optionally styled ones (ASS) too.
/// Sizes and distances are in a 288-line script's units, as ASS measures them, so they scale
/// with the picture. Threading: a value type.
public struct SubtitleStyle: Sendable, Equatable, Codable {
    public enum Size: String, Sendable, Codable, CaseIterable {
        case tiny, medium, large, huge
        /// Font size in 288-line script units (FFmpeg's own default for plain text is 16).
        var points: Double {
            switch self { case .tiny: 11; case .medium: 16; case .large: 21; case .huge: 28 }
        }
        public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
    }

    public var size: Size = .medium
    public var font = "DejaVu Sans"
    /// 0xRRGGBB.
    public var color: UInt32 = 0xFFFFFF
    public var outlineColor: UInt32 = 0x000000
    /// Outline thickness and shadow distance (script units; 0 turns them off).
    public var outline: Double = 1.5
    public var shadow: Double = 0.5
    /// A box behind the text instead of an outline.
    public var backgroundBox = false
    /// 0xRRGGBB and 0 (clear) to 1 (opaque).
    public var backgroundColor: UInt32 = 0x000000
    public var backgroundOpacity: Double = 0.6
    public var bold = false
    /// Distance of the bottom line from the picture's bottom, as a fraction of its height.
    public var verticalMargin: Double = 0.05
    /// Applies this style to ASS/SSA subtitles too (their positioning tags still apply).
    public var overridesStyledSubtitles = false

    public init() {}

    static let scriptWidth = 384
    static let scriptHeight = 288

    /// An ASS colour (&HAABBGGRR, alpha 0 = opaque).
    static func assColor(_ rgb: UInt32, opacity: Double = 1) -> String {
        let r = (rgb >> 16) & 0xFF, g = (rgb >> 8) & 0xFF, b = rgb & 0xFF
        let a = UInt32((1 - max(0, min(1, opacity))) * 255)
        return String(format: "&H%02X%02X%02X%02X", a, b, g, r)
    }

    var marginV: Int { Int((verticalMargin * Double(Self.scriptHeight)).rounded()) }

    /// The "Default" style line that FFmpeg's plain-text decoders refer to.
    var styleLine: String {
        let boxed = backgroundBox
        let outlineColour = boxed ? Self.assColor(backgroundColor, opacity: backgroundOpacity) : Self.assColor(outlineColor)
        let back = boxed ? Self.assColor(backgroundColor, opacity: backgroundOpacity) : Self.assColor(0, opacity: 0.5)
        let fields: [String] = [
            "Default", font, format("%.1f", size.points), Self.assColor(color), Self.assColor(color),
            outlineColour, back, bold ? "-1" : "0", "0", "0", "0", "100", "100", "0", "0",
            boxed ? "3" : "1", format("%.2f", boxed ? max(outline, 1) : outline), format("%.2f", boxed ? 0 : shadow),
            "2", "16", "16", "\(marginV)", "1",
        ]
        return "Style: " + fields.joined(separator: ",")
    }

    /// A whole script header for plain formats, in place of the decoder's.
    var header: String {
        """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: \(Self.scriptWidth)
        PlayResY: \(Self.scriptHeight)
        ScaledBorderAndShadow: yes
        WrapStyle: 0

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        \(styleLine)

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """
    }

    private func format(_ f: String, _ v: Double) -> String { String(format: f, v) }
}
