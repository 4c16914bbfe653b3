import Foundation
@testable import ReelEngine
import Testing

/// How Reel asks for a page's video as yt-dlp would: the headers its server wants (taken from
/// yt-dlp's answer, nothing from the page able to add a header line of its own), and a DASH
/// manifest's representations played as the manifest.
/// Threading: any; no threads.
@Suite("Web pages: asking for the video")
struct WebPageRequestTests {
    static func dash(_ id: String, height: Int?, v: String, a: String, manifest: String = "https://example.com/m.mpd") -> PageFormat {
        PageFormat(id: id, url: manifest, protocolName: "http_dash_segments", height: height, videoCodec: v, audioCodec: a,
                   manifestURL: manifest)
    }

    @Test("A manifest's picture and sound play as the manifest; a sound from elsewhere stays beside it")
    func dashManifest() throws {
        let formats = [Self.dash("v240", height: 240, v: "avc1.64000d", a: "none"),
                       Self.dash("v480", height: 480, v: "avc1.64001e", a: "none"),
                       Self.dash("a", height: nil, v: "none", a: "mp4a.40.2")]
        let chosen = try #require(FormatChoice.choose(formats, maxHeight: 1080, decodes: { _ in true }))
        #expect(chosen.video.id == "v480")
        #expect(chosen.audio == nil, "the manifest's own sound is played with it")
        #expect(chosen.video.playedURL == "https://example.com/m.mpd")
        #expect(FormatChoice.qualities(formats, decodes: { _ in true }).map(\.id) == ["v480", "v240"])
        let asked = try #require(FormatChoice.choose(formats, maxHeight: 1080, asked: "v240", decodes: { _ in true }))
        #expect(asked.video.id == "v240" && asked.audio == nil)
        // The sound in another manifest: played beside the picture.
        let apart = [Self.dash("v", height: 480, v: "avc1.64001e", a: "none"),
                     Self.dash("a", height: nil, v: "none", a: "mp4a.40.2", manifest: "https://example.com/sound.mpd")]
        let both = try #require(FormatChoice.choose(apart, maxHeight: 1080, decodes: { _ in true }))
        #expect(both.audio?.playedURL == "https://example.com/sound.mpd")
        // yt-dlp's fragments without a manifest are not something Reel opens.
        var fragments = Self.dash("f", height: 480, v: "avc1.64001e", a: "mp4a.40.2")
        fragments.manifestURL = nil
        #expect(FormatChoice.choose([fragments], maxHeight: 1080, decodes: { _ in true }) == nil)
    }

    static func page(_ format: String) -> WebPage? {
        WebPage(json: Data("{\"title\": \"t\", \"formats\": [\(format)]}".utf8), address: "https://example.com/page")
    }

    @Test("Who asks and from where goes with each request; a browser's Accept does not; cookies listed apart join in")
    func headersFromAnswer() throws {
        let answer = """
            {"format_id": "1", "url": "https://cdn.example.com/v.mp4", "protocol": "https",
             "http_headers": {"User-Agent": "Mozilla/5.0 (X11)", "referer": "https://example.com/page",
                              "Accept": "text/html", "Sec-Fetch-Mode": "navigate"},
             "cookies": "session=abc; Domain=.example.com; Path=/; Secure; theme=dark; Expires=Tue, 01 Dec 2026 00:00:00 GMT"}
            """
        let headers = try #require(Self.page(answer)?.formats.first?.headers)
        #expect(headers.fields.map(\.name) == ["User-Agent", "Referer", "Cookie"])
        #expect(headers.value(of: "user-agent") == "Mozilla/5.0 (X11)")
        #expect(headers.value(of: "Cookie") == "session=abc; theme=dark")
        #expect(headers.ffmpegOption == "User-Agent: Mozilla/5.0 (X11)\r\nReferer: https://example.com/page\r\nCookie: session=abc; theme=dark\r\n")
    }

    @Test("Nothing read from a page adds a header line: line breaks and odd names are dropped")
    func headerInjection() {
        var headers = RequestHeaders([("Referer", "https://a.example/\r\nX-Evil: 1"), ("Bad Name", "x"), ("X-Ok:", "y"),
                                      ("User-Agent", "Reel\n"), ("Origin", "https://a.example")])
        #expect(headers.fields.map(\.name) == ["Origin"])
        headers.add("origin", "https://b.example")
        #expect(headers.fields.map(\.value) == ["https://b.example"], "the same name twice replaces")
    }

    @Test("A cookie goes only to the host it was given for; the rest follow redirects")
    func cookieStaysHome() {
        let headers = RequestHeaders([("Referer", "https://example.com/page"), ("Cookie", "session=abc")])
        #expect(headers.lines(toward: "https://cdn.example.com/v.mp4?x", from: "https://cdn.example.com/v.mp4")
                == ["Referer: https://example.com/page", "Cookie: session=abc"])
        #expect(headers.lines(toward: "https://elsewhere.example/v.mp4", from: "https://cdn.example.com/v.mp4")
                == ["Referer: https://example.com/page"])
    }

    /// Not a bare path: media is often served so, and yt-dlp's own request would fetch it twice.
    @Test("yt-dlp is asked beside FFmpeg's first look only where an address names a page", arguments: [
        ("https://www.example.com/watch?v=abc", false), ("https://example.com/films/page.html", true),
        ("https://example.com/", false), ("http://example.com/live/stream", false), ("https://example.com/a.php?id=3", true),
        ("https://example.com/News/Story.HTM#video", true), ("https://example.com/cgi/film.aspx", true),
        ("https://example.com/film.mp4", false), ("https://example.com/FILM.MKV?token=x", false),
        ("https://cdn.example.com/master.m3u8", false), ("https://example.com/manifest.mpd#t=3", false),
        ("file:///home/me/page.html", false), ("/home/me/page.html", false),
    ])
    func asksAhead(address: String, expected: Bool) {
        #expect(PageLookahead.mayBePage(address) == expected)
    }
}
