import Foundation

/// yt-dlp asked about an address while FFmpeg takes its first look at it, for addresses that
/// name a web page (`.html`, `.php`, …): when FFmpeg finds no media, yt-dlp's answer is already
/// on its way, instead of starting only then. When FFmpeg finds media after all, the question
/// is dropped and yt-dlp stopped. Addresses without such a name (media behind a bare path, or
/// `/watch?v=`) are not asked ahead: yt-dlp's own request would fetch media a second time,
/// beside the stream cache.
/// Threading: made, taken and dropped on the loader thread; yt-dlp waited for on a thread of
/// its own; `join` from the thread that joins the loader.
final class PageLookahead: @unchecked Sendable {
    // Safe: `outcome` is Locked; `thread` is set in init and only joined after.
    typealias Found = (page: WebPage, video: PageFormat, audio: PageFormat?)
    private let interrupt: InterruptFlag
    private let outcome = Locked<Result<Found, PlayerError>?>(nil)
    private var thread: EngineThread?

    /// The endings of addresses that name a web page.
    static let pageNameEndings: Set<String> = ["html", "htm", "xhtml", "shtml", "php", "asp", "aspx", "jsp", "cgi"]

    /// Whether an address is worth asking yt-dlp about before FFmpeg has looked: an http(s)
    /// one whose path ends in a page's name.
    static func mayBePage(_ address: String) -> Bool {
        guard let url = URL(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { return false }
        return pageNameEndings.contains(url.pathExtension.lowercased())
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
