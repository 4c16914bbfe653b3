import Foundation

/// yt-dlp asked about an address while FFmpeg takes its first look at it, for addresses that
/// may well be web pages (no media name at the end): when FFmpeg finds no media, yt-dlp's
/// answer is already on its way, instead of starting only then. When FFmpeg finds media, the
/// question is dropped and yt-dlp stopped.
/// Threading: made, taken and dropped on the loader thread; yt-dlp waited for on a thread of
/// its own; `join` from the thread that joins the loader.
final class PageLookahead: @unchecked Sendable {
    // Safe: `outcome` is Locked; `thread` is set in init and only joined after.
    typealias Found = (page: WebPage, video: PageFormat, audio: PageFormat?)
    private let interrupt: InterruptFlag
    private let outcome = Locked<Result<Found, PlayerError>?>(nil)
    private var thread: EngineThread?

    /// The endings of addresses that name media or a playlist Reel opens without yt-dlp: for
    /// those, a question to yt-dlp would almost always be wasted.
    static let mediaNameEndings: Set<String> = [
        "mp4", "m4v", "m4a", "mov", "mkv", "mka", "webm", "avi", "wmv", "wma", "asf", "flv", "ts", "m2ts", "mts",
        "mpg", "mpeg", "vob", "ogv", "ogg", "oga", "opus", "mp3", "aac", "ac3", "flac", "wav", "3gp", "m3u8", "m3u",
        "mpd", "pls", "xspf", "srt", "vtt", "ass",
    ]

    /// Whether an address is worth asking yt-dlp about before FFmpeg has looked: an http(s)
    /// one whose path does not end in a media name.
    static func mayBePage(_ address: String) -> Bool {
        guard let url = URL(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { return false }
        let ending = url.pathExtension.lowercased()
        return ending.isEmpty || !mediaNameEndings.contains(ending)
    }

    init(address: String, options: WebPageOptions, parent: InterruptFlag) {
        let interrupt = InterruptFlag(parent: parent)
        self.interrupt = interrupt
        let outcome = self.outcome
        thread = EngineThread(name: "reel.page") {
            let found = Result { () throws(PlayerError) -> Found in
                try PageResolver.resolve(address, options: options, interrupt: interrupt, decodes: FormatChoice.decodable)
            }
            outcome.withLock { $0 = found }
        }
    }

    /// yt-dlp's answer, waiting for it.
    func take() throws(PlayerError) -> Found {
        join()
        guard let found = outcome.current else { throw .internalError("the page's question ended without an answer") }
        return try found.get()
    }

    /// The address was media: yt-dlp is stopped (its thread ends on its own, within a tenth
    /// of a second; `join` waits for it).
    func drop() { interrupt.abort() }

    func join() { thread?.join(); thread = nil }
}
