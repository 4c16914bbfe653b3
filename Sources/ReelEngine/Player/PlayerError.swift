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
        }
    }

    public var message: String {
        switch self {
        case .fileNotFound(let what): "File not found: \(what)"
        case .permissionDenied(let what): "Permission denied: \(what)"
        case .notMediaFile(let what): "Not a media file Reel can read: \(what)"
        case .noPlayableStream(let what): "Nothing to play: \(what)"
        case .unsupportedCodec(let what): "Unsupported codec: \(what)"
        case .networkError(let what): "Network error: \(what)"
        case .corruptData(let what): "The media data is damaged: \(what)"
        case .unsupportedSource(let what): "Reel does not open this kind of address: \(what)"
        case .internalError(let what): "Internal error: \(what)"
        }
    }

    public var description: String { "\(code): \(message)" }
}
