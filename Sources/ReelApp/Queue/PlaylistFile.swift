import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ReelEngine

/// Playlist files as people trade them: M3U (`.m3u`, `.m3u8`), XSPF (the XML playlist of VLC,
/// Rhythmbox and Totem) and PLS (Winamp's, still what internet radios hand out) are read; M3U8
/// and XSPF are written, with the files beside or below the playlist named relative to it, so a
/// folder with its playlist can move elsewhere (a disk, another computer) and still play.
/// Threading: pure functions (file reads and writes), any thread.
enum PlaylistFile {
    enum Format: Equatable {
        case m3u, xspf, pls

        /// The format a file's name says, if it is a playlist's.
        init?(path: String) {
            switch (path as NSString).pathExtension.lowercased() {
            case "m3u", "m3u8": self = .m3u
            case "xspf": self = .xspf
            case "pls": self = .pls
            default: return nil
            }
        }
    }

    // MARK: Reading

    /// An entry as written in a playlist in `folder`: URLs of the schemes Reel plays as they
    /// are (a file URL as its path), a relative path resolved against the folder; nil for
    /// anything else (another scheme, an empty line).
    static func resolve(_ entry: String, in folder: String) -> String? {
        let line = entry.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { return nil }
        if let scheme = line.range(of: "://").map({ line[..<$0.lowerBound].lowercased() }) {
            guard ["http", "https", "file"].contains(scheme) else { return nil }
            return scheme == "file" ? URL(string: line)?.path ?? line : line
        }
        return line.hasPrefix("/") ? line : (folder as NSString).appendingPathComponent(line)
    }

    /// The entries of an XSPF playlist: each track's first location. Locations are URIs, so a
    /// relative one is percent-decoded before it is resolved against the folder.
    static func xspfEntries(_ data: Data, folder: String) -> [String] {
        let reader = XSPFReader()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        // A broken file still gives the tracks read before the fault.
        _ = parser.parse()
        return reader.locations.compactMap { location in
            if location.contains("://") { return resolve(location, in: folder) }
            return resolve(location.removingPercentEncoding ?? location, in: folder)
        }
    }

    /// The entries of a PLS playlist (`File1=…`, `File2=…`), in the order of their numbers.
    static func plsEntries(_ text: String, folder: String) -> [String] {
        var numbered: [(Int, String)] = []
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard line.lowercased().hasPrefix("file"), let equals = line.firstIndex(of: "="),
                  let number = Int(line[line.index(line.startIndex, offsetBy: 4)..<equals]) else { continue }
            if let entry = resolve(String(line[line.index(after: equals)...]), in: folder) { numbered.append((number, entry)) }
        }
        return numbered.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
    }

    // MARK: Writing

    /// Writes `items` to `path`: XSPF for a `.xspf` name, else M3U8. Atomic: a failure leaves
    /// any file that was there as it was.
    static func write(_ items: [MediaSource], to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let data = Format(path: path) == .xspf ? xspf(items, folder: folder) : Data(m3u8(items, folder: folder).utf8)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// An extended M3U in UTF-8: each entry with its name as the title, paths relative to the
    /// playlist's folder where they share one.
    static func m3u8(_ items: [MediaSource], folder: String) -> String {
        let base = components(folder)
        var text = "#EXTM3U\n"
        for item in items {
            text += "#EXTINF:-1,\(title(of: item).replacingOccurrences(of: "\n", with: " "))\n"
            switch item.location {
            case .file(let path):
                // A line starting with "#" is a comment: such a name is written as ./#name.
                let written = relative(path, to: base)
                text += (written.hasPrefix("#") ? "./" + written : written) + "\n"
            case .remote(let url): text += url + "\n"
            }
        }
        return text
    }

    /// XSPF version 1: each entry's location (a relative URI where the file shares the
    /// playlist's folder, else a file URL) and its title.
    static func xspf(_ items: [MediaSource], folder: String) -> Data {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/">
              <trackList>

            """
        let base = components(folder)
        for item in items {
            let location: String
            switch item.location {
            case .file(let path):
                let written = relative(path, to: base)
                location = written.hasPrefix("/") ? URL(fileURLWithPath: path).absoluteString
                    : written.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? written
            case .remote(let url):
                location = url
            }
            text += "    <track>\n      <location>\(escaped(location))</location>\n"
                + "      <title>\(escaped(title(of: item)))</title>\n    </track>\n"
        }
        text += "  </trackList>\n</playlist>\n"
        return Data(text.utf8)
    }

    /// `path` relative to `folder` (with `..` steps) when the two share a folder below the
    /// root, else as it is.
    static func relative(_ path: String, to folder: String) -> String { relative(path, to: components(folder)) }

    /// A folder's names, root first (a playlist of 100,000 entries splits its own once).
    private static func components(_ folder: String) -> [Substring] { folder.split(separator: "/") }

    private static func relative(_ path: String, to base: [Substring]) -> String {
        let target = path.split(separator: "/")
        var shared = 0
        while shared < min(target.count - 1, base.count) && target[shared] == base[shared] { shared += 1 }
        guard shared > 0, path.hasPrefix("/") else { return path }   // only "/" in common
        let up = Array(repeating: Substring(".."), count: base.count - shared)
        return (up + target[shared...]).joined(separator: "/")
    }

    private static func title(of item: MediaSource) -> String {
        switch item.location {
        case .file(let path): ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        case .remote(let url): url
        }
    }

    private static func escaped(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || $0 == "\"" }) else { return text }
        return text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// Collects the first `<location>` of every `<track>` (XSPF's namespace or none).
/// Threading: used by one parser on one thread.
private final class XSPFReader: NSObject, XMLParserDelegate {
    var locations: [String] = []
    private var inTrack = false
    private var hasLocation = false
    private var text: String?

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let local = name.split(separator: ":").last.map(String.init) ?? name
        if local == "track" { inTrack = true; hasLocation = false }
        if local == "location", inTrack, !hasLocation { text = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text? += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let local = name.split(separator: ":").last.map(String.init) ?? name
        if local == "location", let location = text {
            locations.append(location)
            hasLocation = true
            text = nil
        }
        if local == "track" { inTrack = false }
    }
}
