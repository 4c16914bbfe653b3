import Foundation

/// The resources an HLS playlist names (segments, keys, init sections, variant and rendition
/// playlists), resolved against the playlist's URL, http(s) only: what "download for offline"
/// must fetch besides the playlist. Threading: pure.
enum PlaylistLinks {
    static func isPlaylist(_ data: Data) -> Bool {
        data.starts(with: Array("#EXTM3U".utf8)) || data.starts(with: [0xEF, 0xBB, 0xBF] + Array("#EXTM3U".utf8))
    }

    /// Every URL the playlist `text` at `base` names, in order, without repeats.
    static func links(in text: String, base: String) -> [String] {
        guard let baseURL = URL(string: base) else { return [] }
        var seen = Set<String>()
        var out: [String] = []
        func add(_ reference: String) {
            let trimmed = reference.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, let url = URL(string: trimmed, relativeTo: baseURL)?.absoluteURL,
                  let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return }
            if seen.insert(url.absoluteString).inserted { out.append(url.absoluteString) }
        }
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if !line.hasPrefix("#") { add(line); continue }
            // Tags that carry a URI attribute: keys, init sections, renditions, i-frame playlists.
            if let range = line.range(of: "URI=\"") {
                let rest = line[range.upperBound...]
                if let end = rest.firstIndex(of: "\"") { add(String(rest[..<end])) }
            }
        }
        return out
    }

    /// Whether a playlist is a master one: it names variant or rendition playlists, whose
    /// tags appear nowhere else.
    static func isMaster(_ text: String) -> Bool {
        text.contains("#EXT-X-STREAM-INF") || text.contains("#EXT-X-I-FRAME-STREAM-INF") || text.contains("#EXT-X-MEDIA:")
    }

    /// Whether a playlist is a live one (no end tag and not a master playlist): not kept offline.
    static func isLive(_ text: String) -> Bool {
        !text.contains("#EXT-X-ENDLIST") && !isMaster(text)
    }
}
