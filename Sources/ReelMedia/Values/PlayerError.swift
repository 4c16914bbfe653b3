/// Why media could not be played. Each case has a stable machine-readable `code` (used by
/// `reel-tool`'s JSON and by hosts for localisation) and a readable `message` for people.
/// Threading: a value type.
public enum PlayerError: Error, Sendable, Equatable, CustomStringConvertible {
    case fileNotFound(String)
    case permissionDenied(String)
    case notMediaFile(String)
    case noPlayableStream(String)
    case unsupportedCodec(String)
    case networkError(String)
    case corruptData(String)
    /// A URL scheme or FFmpeg protocol Reel does not open (see `ProtocolPolicy`).
    case unsupportedSource(String)
    case internalError(String)
    /// A web page whose video yt-dlp could not give (its reason, or why Reel could not play it).
    case webPageFailed(String)
    /// A web page, and the program that finds its video (yt-dlp) is not installed.
    case webPageNeedsProgram(String)

    public var code: String {
        switch self {
        case .fileNotFound: "file_not_found"
        case .permissionDenied: "permission_denied"
        case .notMediaFile: "not_media_file"
        case .noPlayableStream: "no_playable_stream"
        case .unsupportedCodec: "unsupported_codec"
        case .networkError: "network_error"
        case .corruptData: "corrupt_data"
        case .unsupportedSource: "unsupported_source"
        case .internalError: "internal_error"
        case .webPageFailed: "web_page_failed"
        case .webPageNeedsProgram: "web_page_needs_program"
        }
    }

    /// The details as they came (a path, a codec, what FFmpeg or the sound server said), not
    /// translated: what `message` puts into its sentence.
    public var detail: String {
        switch self {
        case .fileNotFound(let what), .permissionDenied(let what), .notMediaFile(let what),
             .noPlayableStream(let what), .unsupportedCodec(let what), .networkError(let what),
             .corruptData(let what), .unsupportedSource(let what), .internalError(let what),
             .webPageFailed(let what), .webPageNeedsProgram(let what): what
        }
    }

    /// In the person's language once the `reel` domain is bound (the details stay as they came).
    public var message: String {
        switch self {
        case .fileNotFound(let what): String(format: tr("File not found: %@"), what)
        case .permissionDenied(let what): String(format: tr("Permission denied: %@"), what)
        case .notMediaFile(let what): String(format: tr("Not a media file Reel can read: %@"), what)
        case .noPlayableStream(let what): String(format: tr("Nothing to play: %@"), what)
        case .unsupportedCodec(let what): String(format: tr("Unsupported codec: %@"), what)
        case .networkError(let what): String(format: tr("Network error: %@"), what)
        case .corruptData(let what): String(format: tr("The media data is damaged: %@"), what)
        case .unsupportedSource(let what): String(format: tr("Reel does not open this kind of address: %@"), what)
        case .internalError(let what): String(format: tr("Internal error: %@"), what)
        case .webPageFailed(let what): String(format: tr("No video found on this web page: %@"), what)
        // Translators: %@ is the program's name, yt-dlp.
        case .webPageNeedsProgram(let what): String(format: tr("This is a web page: to find its video, Reel needs %@. Install it (the yt-dlp package, or pip install yt-dlp) and open the page again."), what)
        }
    }

    public var description: String { "\(code): \(message)" }
}
