/// Why there is no thumbnail. Each case has a stable `code` and a `message` a window can show.
/// Threading: a value type.
public enum ThumbnailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Previews are not offered for this source (see `MediaSource.previewAvailability`).
    case unavailable(String)
    /// The media has no picture to show (sound only, or only cover art).
    case noPicture(String)
    /// The media could not be opened or read there.
    case unreadable(PlayerError)
    /// The provider was closed.
    case closed

    public var code: String {
        switch self {
        case .unavailable: "preview_unavailable"
        case .noPicture: "no_picture"
        case .unreadable(let error): error.code
        case .closed: "closed"
        }
    }

    public var message: String {
        switch self {
        case .unavailable(let reason): reason
        case .noPicture(let what): String(format: tr("No picture: %@"), what)
        case .unreadable(let error): error.message
        case .closed: tr("The preview was closed")
        }
    }

    public var description: String { "\(code): \(message)" }
}
