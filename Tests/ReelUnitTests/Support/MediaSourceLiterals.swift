import ReelEngine

/// Queue items written as text in the queue's tests ("a", "/x/a.mp4", "https://…"), parsed as
/// the queue parses what is opened.
extension MediaSource: ExpressibleByStringLiteral {
    public init(stringLiteral text: String) {
        self = (try? MediaSource(parsing: text)) ?? MediaSource(path: text)
    }
}
