/// How Reel asks yt-dlp for the video on a web page: which program, how long it may take, and
/// how tall a picture to choose (the screen's height).
/// Threading: a value type.
public struct WebPageOptions: Sendable, Equatable {
    /// The program, by name on PATH or by path (Debian's and PyPI's are both `yt-dlp`).
    public var program = "yt-dlp"
    /// Seconds before an unanswered page is given up (a server that never answers, a site
    /// that throttles the extractor), and yt-dlp is stopped.
    public var timeout = 30.0
    /// The tallest picture wanted: a format fitting the screen, not the largest on offer.
    public var maxHeight = 1080
    /// A quality the person chose (a yt-dlp format id), played in place of the one that fits.
    public var format: String?

    public init() {}
}
