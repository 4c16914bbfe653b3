/// One quality a web page offers that Reel plays: its yt-dlp format id, its picture's height and
/// yt-dlp's note (`720p`, `hls-2000`).
/// Threading: a value type.
public struct WebFormatChoice: Sendable, Equatable, Codable {
    public var id: String
    public var height: Int?
    public var note: String?

    public init(id: String, height: Int?, note: String?) {
        self.id = id
        self.height = height
        self.note = note
    }
}
