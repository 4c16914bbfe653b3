import CGtk
import Foundation

/// What a person opened, as queue items: files and URLs as they are, folders as the media
/// files in them (in the order a file manager lists them: "2" before "10"), and `.m3u` /
/// `.m3u8` playlists as their entries. An HLS playlist (also `.m3u8`) is one stream, not a
/// list of files, and stays one item.
/// Threading: pure functions (file reads), any thread.
enum QueueSources {
    /// How deep playlists may include playlists (a loop of them must end).
    static let maximumDepth = 4

    static func expand(_ names: [String]) -> [String] {
        names.flatMap { expand($0, depth: 0) }
    }

    private static func expand(_ name: String, depth: Int) -> [String] {
        if name.contains("://") && !name.hasPrefix("file://") { return [name] }
        let path = name.hasPrefix("file://") ? (URL(string: name)?.path ?? name) : name
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [name] }
        if isDirectory.boolValue { return folder(path) }
        if depth < maximumDepth, isPlaylist(path), let entries = playlistEntries(path) {
            return entries.flatMap { expand($0, depth: depth + 1) }
        }
        return [path]
    }

    /// The media files directly in `folder`, sorted as people sort names.
    static func folder(_ folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }
            .sorted { $0.compare($1, options: [.numeric, .caseInsensitive]) == .orderedAscending }
            .map { (folder as NSString).appendingPathComponent($0) }
            .filter { isMedia($0) }
    }

    /// Whether GIO's content-type guess (by name) calls it audio or video.
    static func isMedia(_ path: String) -> Bool {
        var uncertain: gboolean = 0
        guard let type = GString.take(g_content_type_guess(path, nil, 0, &uncertain)),
              let mime = GString.take(g_content_type_get_mime_type(type)) else { return false }
        return mime.hasPrefix("video/") || mime.hasPrefix("audio/") || mime == "application/vnd.ms-asf"
            || mime == "application/vnd.rn-realmedia"
    }

    static func isPlaylist(_ path: String) -> Bool {
        let ext = (path as NSString).pathExtension.lowercased()
        return ext == "m3u" || ext == "m3u8"
    }

    /// The entries of an M3U playlist (relative paths resolved against its folder; only
    /// http, https and file URLs), or nil when it is an HLS stream and plays as one item.
    static func playlistEntries(_ path: String) -> [String]? {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        // M3U8 is UTF-8; older M3U files are often Latin-1.
        let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) ?? ""
        if text.contains("#EXT-X-TARGETDURATION") || text.contains("#EXT-X-STREAM-INF") { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        return text.split(whereSeparator: \.isNewline).compactMap { raw -> String? in
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { return nil }
            if let scheme = line.range(of: "://").map({ line[..<$0.lowerBound].lowercased() }) {
                return ["http", "https", "file"].contains(scheme) ? line : nil
            }
            return line.hasPrefix("/") ? line : (folder as NSString).appendingPathComponent(line)
        }
    }
}
