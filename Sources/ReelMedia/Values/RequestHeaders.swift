import Foundation

/// HTTP headers sent with each request for one item: those a web page's server wants for its
/// video (yt-dlp's `http_headers` and `cookies`: a Referer for hotlink protection, the browser's
/// User-Agent, a session cookie), as mpv's ytdl hook passes them on. Names and values holding
/// a line break are dropped, so nothing read from a page can add a header of its own.
/// Threading: a value type.
public struct RequestHeaders: Sendable, Equatable {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}

    /// `fields` in order; unsafe ones left out.
    public init(_ fields: [(String, String)]) {
        for (name, value) in fields { add(name, value) }
    }

    public static func == (a: RequestHeaders, b: RequestHeaders) -> Bool {
        a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public var isEmpty: Bool { fields.isEmpty }

    /// Adds a field, replacing one of the same name (names compare without case).
    public mutating func add(_ name: String, _ value: String) {
        let name = name.trimmingCharacters(in: .whitespaces)
        let value = value.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !value.isEmpty, name.allSatisfy(Self.isTokenCharacter),
              // Scalars, not Characters: "\r\n" is one Character, equal to neither.
              !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else { return }
        fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        fields.append((name, value))
    }

    /// The value of `name`, if set.
    public func value(of name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// `name: value` lines for a request to `url`, reached from `origin` (the address first
    /// asked for): the cookie only while the host is the same.
    package func lines(toward url: String, from origin: String) -> [String] {
        let sameHost = URL(string: url)?.host?.lowercased() == URL(string: origin)?.host?.lowercased()
        return fields.filter { sameHost || $0.name.caseInsensitiveCompare("Cookie") != .orderedSame }
            .map { "\($0.name): \($0.value)" }
    }

    /// FFmpeg's http protocol `headers` option: CRLF-ended lines.
    package var ffmpegOption: String { fields.map { "\($0.name): \($0.value)\r\n" }.joined() }

    /// RFC 9110's token characters, what a field name is made of.
    private static func isTokenCharacter(_ c: Character) -> Bool {
        guard c.isASCII, let v = c.asciiValue, v > 32, v < 127 else { return false }
        return !"\"(),/:;<=>?@[\\]{}".contains(c)
    }
}
