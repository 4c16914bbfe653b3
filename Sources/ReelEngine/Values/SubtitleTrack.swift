import Foundation

/// One subtitle track the player can show: a stream of the media or an external file.
/// Threading: a value type.
public struct SubtitleTrack: Sendable, Equatable, Codable {
    public enum Origin: Sendable, Equatable, Codable {
        /// A stream of the playing media, by its index in `MediaInfo.streams`.
        case embedded(streamIndex: Int)
        /// A file found next to the media or added by the person.
        case external(path: String)
    }

    /// Stable for as long as the media is open; what `selectSubtitleTrack` takes.
    public var id: Int
    public var origin: Origin
    /// ISO 639 code as tagged (or taken from a file name such as `film.en.srt`), if any.
    public var language: String?
    public var title: String?
    /// The decoder's name (subrip, ass, webvtt, mov_text, hdmv_pgs_subtitle, ...).
    public var codec: String
    /// Pictures (PGS, DVB, VobSub) rather than text.
    public var isBitmap: Bool
    public var isDefault: Bool
    /// The text encoding the file was read in (external text files only).
    public var charset: String?

    /// A name for menus: "English", "English — Commentary", "film.srt", "Track 3".
    public var displayName: String {
        var parts: [String] = []
        if let name = LanguageNames.name(for: language) { parts.append(name) }
        if let title, !title.isEmpty, !parts.contains(title) { parts.append(title) }
        if parts.isEmpty, case .external(let path) = origin { parts.append((path as NSString).lastPathComponent) }
        if parts.isEmpty { parts.append(String(format: tr("Track %ld"), id)) }
        return parts.joined(separator: " — ")
    }
}
