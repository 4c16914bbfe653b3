import Foundation

/// What yt-dlp found on a web page: the video's title, its chapters, its formats and the one
/// Reel plays. Read from `yt-dlp -J --flat-playlist`'s JSON: a page holding a list gives its
/// first video (with its formats, or as another page to ask about) and the addresses of all.
/// Threading: a value type.
public struct WebPage: Sendable, Equatable {
    public var address: String
    public var title: String?
    public var chapters: [Chapter]
    public var formats: [PageFormat]
    public var duration: Double?
    /// A list's videos, in order (the first is this one): what the queue takes.
    public var entries: [String]

    /// The page's video from yt-dlp's JSON; nil when it holds none.
    public init?(json: Data, address: String) {
        guard var object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else { return nil }
        entries = []
        if object["_type"] as? String == "playlist" {
            let list = (object["entries"] as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
            guard let first = list.first else { return nil }
            entries = list.compactMap { ($0["url"] as? String).flatMap { $0.hasPrefix("http://") || $0.hasPrefix("https://") ? $0 : nil } }
            object = first
        }
        self.address = address
        title = (object["title"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        duration = object["duration"] as? Double
        chapters = (object["chapters"] as? [[String: Any]] ?? []).compactMap { chapter in
            guard let start = Self.number(chapter["start_time"]), let end = Self.number(chapter["end_time"]) else { return nil }
            return Chapter(start: start, end: end, title: chapter["title"] as? String)
        }
        var found = (object["formats"] as? [[String: Any]] ?? []).compactMap(Self.format)
        // A page with one video and no list of formats names it at the top; a list's entry
        // that is another page to ask about ("url") names that page instead.
        let isPage = ["url", "url_transparent"].contains(object["_type"] as? String ?? "")
        if found.isEmpty, !isPage, let single = Self.format(object) { found = [single] }
        guard !found.isEmpty || (isPage && !entries.isEmpty) else { return nil }
        formats = found
    }

    public init(address: String, title: String?, chapters: [Chapter], formats: [PageFormat], duration: Double?, entries: [String]) {
        self.address = address
        self.title = title
        self.chapters = chapters
        self.formats = formats
        self.duration = duration
        self.entries = entries
    }

    private static func format(_ item: [String: Any]) -> PageFormat? {
        guard let url = item["url"] as? String, url.hasPrefix("http://") || url.hasPrefix("https://") else { return nil }
        let manifest = (item["manifest_url"] as? String).flatMap { $0.hasPrefix("http://") || $0.hasPrefix("https://") ? $0 : nil }
        return PageFormat(id: item["format_id"] as? String ?? "0", url: url,
                          protocolName: item["protocol"] as? String ?? (url.hasPrefix("https") ? "https" : "http"),
                          width: item["width"] as? Int, height: item["height"] as? Int,
                          videoCodec: item["vcodec"] as? String, audioCodec: item["acodec"] as? String,
                          bitRate: number(item["tbr"]), label: item["format_note"] as? String ?? item["format"] as? String,
                          manifestURL: manifest, headers: headers(item))
    }

    /// The headers yt-dlp would send for a format: its `http_headers`, and its `cookies` (newer
    /// yt-dlp lists them apart, as `Set-Cookie`-style text: name=value pairs among attributes).
    private static func headers(_ item: [String: Any]) -> RequestHeaders {
        var headers = RequestHeaders()
        // The page's own headers that say who asks and from where; not Accept and the like,
        // which describe a browser fetching a page rather than a player fetching media.
        let passed = ["User-Agent", "Referer", "Origin", "Cookie", "X-Forwarded-For"]
        let given = item["http_headers"] as? [String: Any] ?? [:]
        for name in passed {
            if let value = given.first(where: { $0.key.caseInsensitiveCompare(name) == .orderedSame })?.value as? String {
                headers.add(name, value)
            }
        }
        if headers.value(of: "Cookie") == nil, let cookies = item["cookies"] as? String {
            let attributes: Set<String> = ["domain", "path", "expires", "max-age", "secure", "httponly", "samesite", "version", "comment"]
            let pairs = cookies.split(separator: ";").compactMap { part -> String? in
                let pair = part.trimmingCharacters(in: .whitespaces)
                guard let equals = pair.firstIndex(of: "="),
                      !attributes.contains(pair[..<equals].lowercased()) else { return nil }
                return pair
            }
            if !pairs.isEmpty { headers.add("Cookie", pairs.joined(separator: "; ")) }
        }
        return headers
    }

    private static func number(_ value: Any?) -> Double? {
        if let double = value as? Double { return double }
        if let int = value as? Int { return Double(int) }
        return nil
    }
}
