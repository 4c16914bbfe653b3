import CGtk
import Foundation
import ReelGtk

/// What a person opened, as queue items: files and URLs as they are, folders as the media
/// files in them (in the order a file manager lists them: "2" before "10"), and playlists
/// (`.m3u`, `.m3u8`, `.xspf`, `.pls`: `PlaylistFile`) as their entries. An HLS playlist (also `.m3u8`) is one stream, not a
/// list of files, and stays one item. Each playlist file is expanded once: one that includes
/// itself, a cycle (a.m3u → b.m3u → a.m3u) or one named again adds nothing more, so what
/// comes back is the finite list of media the playlists name (and a playlist naming another
/// thousands of times cannot multiply it).
/// Threading: pure functions (file reads), any thread.
enum QueueSources {
    /// How deep playlists may include playlists: a guard besides expanding each once.
    static let maximumDepth = 8
    /// Playlist files are read up to this size; entries past it are left out (a real one
    /// of 100,000 entries is a few megabytes).
    static let largestPlaylist = 32 << 20

    static func expand(_ names: [String]) -> [String] {
        var expanded: Set<String> = []
        return names.flatMap { expand($0, depth: 0, expanded: &expanded) }
    }

    /// `expanded`: the playlists expanded so far, by real path (a symlink or `./` is the same file).
    private static func expand(_ name: String, depth: Int, expanded: inout Set<String>) -> [String] {
        if name.contains("://") && !name.hasPrefix("file://") { return [name] }
        let path = name.hasPrefix("file://") ? (URL(string: name)?.path ?? name) : name
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [name] }
        if isDirectory.boolValue { return folder(path) }
        guard isPlaylist(path) else { return [path] }
        let key = realPath(path)
        guard !expanded.contains(key) else { return [] }
        // An HLS stream is one item, each time it is named.
        guard let entries = playlistEntries(path) else { return [path] }
        guard depth < maximumDepth else { return [] }
        expanded.insert(key)
        return entries.flatMap { expand($0, depth: depth + 1, expanded: &expanded) }
    }

    private static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
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

    static func isPlaylist(_ path: String) -> Bool { PlaylistFile.Format(path: path) != nil }

    /// The entries of a playlist (relative paths resolved against its folder; only http,
    /// https and file URLs), or nil when it is an HLS stream and plays as one item.
    static func playlistEntries(_ path: String) -> [String]? {
        guard let file = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? file.close() }
        var data = (try? file.read(upToCount: largestPlaylist)) ?? Data()
        // Cut to a whole line if the file went on.
        if data.count == largestPlaylist, let end = data.lastIndex(of: 0x0A) { data = data.prefix(upTo: end) }
        let folder = (path as NSString).deletingLastPathComponent
        // XML says its own encoding.
        if PlaylistFile.Format(path: path) == .xspf { return PlaylistFile.xspfEntries(data, folder: folder) }
        // M3U8 is UTF-8; older M3U and PLS files are often Latin-1.
        let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) ?? ""
        if PlaylistFile.Format(path: path) == .pls { return PlaylistFile.plsEntries(text, folder: folder) }
        if text.contains("#EXT-X-TARGETDURATION") || text.contains("#EXT-X-STREAM-INF") { return nil }
        return text.split(whereSeparator: \.isNewline).compactMap { raw -> String? in
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#") else { return nil }
            return PlaylistFile.resolve(line, in: folder)
        }
    }
}
