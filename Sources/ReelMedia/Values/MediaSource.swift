import Foundation

/// What to play: a local file or an http(s) URL. Parsed from what a person or a file manager
/// hands over (a path, a `file://` URI, an `http(s)://` URL). Threading: a value type.
public struct MediaSource: Sendable, Hashable, CustomStringConvertible {
    public enum Location: Sendable, Hashable {
        case file(path: String)
        case remote(url: String)
    }

    public let location: Location

    private init(location: Location) { self.location = location }

    public init(path: String) {
        let absolute = path.hasPrefix("/")
            ? path
            : FileManager.default.currentDirectoryPath + "/" + path
        location = .file(path: Self.resolved(absolute))
    }

    /// The path with its folder's symlinks and `.`/`..` resolved; the file keeps the name it
    /// was given (a link named for the film shows that name). realpath(3) on the folder:
    /// Foundation's `standardizingPath` reads each component's link in turn, which made a
    /// playlist of 100,000 entries take seconds to open. A folder that does not exist keeps
    /// Foundation's lexical answer.
    private static func resolved(_ absolute: String) -> String {
        let name = (absolute as NSString).lastPathComponent
        let folder = (absolute as NSString).deletingLastPathComponent
        guard name != ".", name != "..", !name.isEmpty, let real = realpath(folder, nil) else {
            return (absolute as NSString).standardizingPath
        }
        defer { free(real) }
        let resolvedFolder = String(cString: real)
        return resolvedFolder == "/" ? "/" + name : resolvedFolder + "/" + name
    }

    /// Parses a path or URL. Schemes other than file, http and https are refused here, before
    /// FFmpeg sees them (see `ProtocolPolicy`).
    public init(parsing text: String) throws(PlayerError) {
        guard let colon = text.firstIndex(of: ":"),
              let scheme = Optional(text[..<colon].lowercased()),
              !scheme.isEmpty, scheme.count > 1,  // "C:" style or a bare path keeps its colon
              scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
              text[colon...].hasPrefix("://") || scheme == "file"
        else {
            self.init(path: text)
            return
        }
        switch scheme {
        case "file":
            guard let url = URL(string: text), url.isFileURL, !url.path.isEmpty else {
                throw .fileNotFound(text)
            }
            self.init(path: url.path)
        case "http", "https":
            guard URL(string: text)?.host != nil else { throw .unsupportedSource(text) }
            self.init(location: .remote(url: text))
        default:
            throw .unsupportedSource(text)
        }
    }

    public var isRemote: Bool {
        if case .remote = location { return true }
        return false
    }

    /// The string handed to FFmpeg.
    package var ffmpegURL: String {
        switch location {
        // "file:" keeps a path such as "a:b.mp4" from being read as a protocol name.
        case .file(let path): "file:" + path
        case .remote(let url): url
        }
    }

    /// A short name for titles and messages: the file name, or the URL.
    public var displayName: String {
        switch location {
        case .file(let path): (path as NSString).lastPathComponent
        case .remote(let url): url
        }
    }

    public var description: String {
        switch location {
        case .file(let path): path
        case .remote(let url): url
        }
    }
}
