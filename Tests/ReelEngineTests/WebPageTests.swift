import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// Web pages with a video on them, served by the test nginx and read by the real yt-dlp (its
/// generic extractor works offline): the video plays to its end, exact seeks land on FFmpeg's
/// picture, the title is the page's. yt-dlp absent, failing and hanging each end in a readable
/// error, and no yt-dlp is left running.
@Suite("Web pages through yt-dlp", .serialized)
struct WebPageTests {
    /// The kinds of page: a `<video>` tag, an Open Graph video, a `<video>` of an HLS master
    /// playlist, and one of a master whose picture and sound come apart (its sound a rendition
    /// of its own, as most sites serve them), a `<video>` of a DASH manifest (picture and sound
    /// its representations), and a `<video>` whose film the server gives only to requests from
    /// the page (its Referer). Each returns the page's address.
    enum Page: String, CaseIterable, Sendable {
        case videoTag, openGraph, hlsMaster, apart, dash, guarded

        var title: String {
            switch self {
            case .videoTag: "A film in a video tag (1)"
            case .openGraph: "A film shared with Open Graph"
            case .hlsMaster: "A stream in a video tag (1)"
            case .apart: "Picture and sound apart (1)"
            case .dash: "A DASH stream in a video tag (1)"
            case .guarded: "A film kept for its page (1)"
            }
        }

        func publish(_ server: WebServer) throws -> String {
            switch self {
            case .videoTag:
                _ = try server.publish(try Fixtures.path(.h264MP4), as: "pages/film.mp4")
                return try server.publish(text: """
                    <!doctype html><html><head><title>A film in a video tag</title></head>
                    <body><h1>Our film</h1><video controls src="film.mp4"></video></body></html>
                    """, as: "pages/video-tag.html")
            case .openGraph:
                let film = try server.publish(try Fixtures.path(.h264MP4), as: "pages/film.mp4")
                return try server.publish(text: """
                    <!doctype html><html><head><title>Shared</title>
                    <meta property="og:title" content="A film shared with Open Graph">
                    <meta property="og:video" content="\(film)"><meta property="og:video:type" content="video/mp4">
                    </head><body>Watch it.</body></html>
                    """, as: "pages/open-graph.html")
            case .hlsMaster:
                let folder = server.root.appendingPathComponent("pages/hls")
                if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("v.m3u8").path) {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", try Fixtures.path(.h264TS),
                                     "-c", "copy", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0",
                                     folder.appendingPathComponent("v.m3u8").path])
                }
                _ = try server.publish(text: """
                    #EXTM3U
                    #EXT-X-STREAM-INF:BANDWIDTH=1000000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"
                    v.m3u8
                    """, as: "pages/hls/master.m3u8")
                return try server.publish(text: """
                    <!doctype html><html><head><title>A stream in a video tag</title></head><body>
                    <video controls><source src="hls/master.m3u8" type="application/x-mpegURL"></video></body></html>
                    """, as: "pages/hls-master.html")
            case .apart:
                let folder = server.root.appendingPathComponent("pages/apart")
                if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.m3u8").path) {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    let source = try Fixtures.path(.h264TS)
                    for (kind, keep) in [("v", "-an"), ("a", "-vn")] {
                        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", source, keep, "-c", "copy",
                                         "-f", "hls", "-hls_time", "1", "-hls_list_size", "0",
                                         "-hls_segment_filename", folder.appendingPathComponent("\(kind)%d.ts").path,
                                         folder.appendingPathComponent("\(kind).m3u8").path])
                    }
                }
                _ = try server.publish(text: """
                    #EXTM3U
                    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="sound",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="a.m3u8"
                    #EXT-X-STREAM-INF:BANDWIDTH=1000000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2",AUDIO="sound"
                    v.m3u8
                    """, as: "pages/apart/master.m3u8")
                return try server.publish(text: """
                    <!doctype html><html><head><title>Picture and sound apart</title></head><body>
                    <video controls><source src="apart/master.m3u8" type="application/x-mpegURL"></video></body></html>
                    """, as: "pages/apart.html")
            case .dash:
                try DashFixtures.publish(.template, on: server, as: "pages/dash")
                return try server.publish(text: """
                    <!doctype html><html><head><title>A DASH stream in a video tag</title></head><body>
                    <video controls><source src="dash/manifest.mpd" type="application/dash+xml"></video></body></html>
                    """, as: "pages/dash.html")
            case .guarded:
                _ = try server.publish(try Fixtures.path(.h264MP4), as: "pages/guarded/film.mp4")
                return try server.publish(text: """
                    <!doctype html><html><head><title>A film kept for its page</title></head>
                    <body><video controls src="guarded/film.mp4"></video></body></html>
                    """, as: "pages/guarded.html")
            }
        }
    }

    @Test("A page's video plays to its end with the page's title", arguments: Page.allCases)
    func plays(page: Page) throws {
        let address = try page.publish(try WebServer.shared())
        let test = TestPlayer(audio: .null) { $0.autoplay = true; $0.freewheel = true }
        let presenter = HeadlessPresenter(player: test.player, rate: nil)
        presenter.start()
        defer { presenter.stop() }
        try test.open(address)
        let info = try #require(test.player.mediaInfo)
        #expect(info.title == page.title)
        #expect(info.webPage == address)
        #expect(info.source != address, "the page itself was played")
        try test.waitForState("the end of \(page)") { $0 == .ended }
        #expect(test.player.statistics.framesShown > 50)
        // The sound came from the page too: with its own input when it comes apart.
        #expect(test.player.statistics.audioSamplesDecoded > 48000)
        #expect(ExternalAudio.isExternal(info.selectedAudioStream ?? 0) == (page == .apart))
    }

    /// The guarded film needs its page's Referer: asked for directly it is refused, found
    /// through its page it plays, through the stream cache and streamed past it.
    @Test("A film its server gives only to its page plays from the page, cached or not; asked for alone it is refused",
          arguments: [true, false])
    func guarded(cached: Bool) throws {
        let server = try WebServer.shared()
        let address = try Page.guarded.publish(server)
        let refused = TestPlayer { $0.streamCache.enabled = cached }
        refused.player.open(server.url("pages/guarded/film.mp4"))
        let state = try refused.waitForState("the film alone to fail") { $0.error != nil || $0 == .ready }
        #expect(state.error?.detail.contains("403") == true, "\(state)")
        let test = TestPlayer { $0.streamCache.enabled = cached; $0.autoplay = true; $0.freewheel = true }
        let presenter = HeadlessPresenter(player: test.player, rate: nil)
        presenter.start()
        defer { presenter.stop() }
        try test.open(address)
        try test.waitForState("the end of the guarded film") { $0 == .ended }
        #expect(test.player.statistics.framesShown > 50)
    }

    @Test("Exact seeks in a page's video land on FFmpeg's picture")
    func exactSeeks() throws {
        let address = try Page.videoTag.publish(try WebServer.shared())
        let oracle = try FrameMD5.of(try Fixtures.path(.h264MP4))
        let test = TestPlayer()
        try test.open(address)
        for target in oracle.targets(count: 3, seed: 5) {
            #expect(try test.seek(to: target)?.md5() == oracle.frame(at: target).md5, "seek to \(target)")
        }
    }

    /// A page whose HLS master offers 240 and 120 lines: the taller plays, both are offered,
    /// and choosing the other plays it from the same picture.
    @Test("Another quality chosen plays from the same picture; both are offered, tallest first")
    func quality() throws {
        let address = try WebPages.twoQualities(try WebServer.shared())
        let test = TestPlayer()
        try test.open(address)
        let first = try #require(test.player.mediaInfo)
        #expect(first.webFormats.map(\.height) == [240, 120])
        #expect(first.webFormat == first.webFormats.first?.id)
        #expect(first.videoStream?.height == 240)
        try test.seek(to: 2.0)
        let mark = test.recorder.count
        let low = try #require(first.webFormats.last)
        test.player.selectWebFormat(low.id)
        // Opened again: ready at the picture it was on.
        try test.waitForState(from: mark, "the page again in the other quality") {
            $0 == .ready && test.player.mediaInfo?.webFormat == low.id
        }
        #expect(test.player.mediaInfo?.videoStream?.height == 120)
        #expect(test.player.mediaInfo?.title == "Two qualities (1)")
        #expect(abs((test.player.currentFrame?.pts ?? 0) - 2.0) < 0.05, "the picture moved: \(String(describing: test.player.currentFrame?.pts))")
    }

    @Test("A page of two videos plays the first and lists both for the queue")
    func listed() throws {
        let address = try WebPages.twoVideos(try WebServer.shared())
        let test = TestPlayer()
        try test.open(address)
        let info = try #require(test.player.mediaInfo)
        #expect(info.webPageEntries.map { ($0 as NSString).lastPathComponent } == ["first.mp4", "second.mp4"])
        #expect(info.source.hasSuffix("first.mp4"))
        #expect(info.title == "Two films (1)")
    }

    /// What opening `address` with `options` ended in.
    static func failure(_ address: String, _ configure: @escaping (inout WebPageOptions) -> Void = { _ in }) throws -> PlayerError {
        let test = TestPlayer { configure(&$0.webPages) }
        test.player.open(address)
        let state = try test.waitForState("the page to fail") { $0.error != nil || $0 == .ready }
        return try #require(state.error, "the page opened")
    }

    @Test("Without yt-dlp: a message saying what to install")
    func absent() throws {
        let address = try Page.videoTag.publish(try WebServer.shared())
        let error = try Self.failure(address) { $0.program = "reel-test-no-such-yt-dlp" }
        #expect(error == .webPageNeedsProgram("reel-test-no-such-yt-dlp"))
        #expect(error.message.contains("Install it"))
    }

    @Test("A page without a video: yt-dlp's reason")
    func noVideo() throws {
        let address = try WebServer.shared().publish(text: "<!doctype html><html><head><title>Words</title></head><body>Only words.</body></html>",
                                                      as: "pages/words.html")
        let error = try Self.failure(address)
        guard case .webPageFailed(let reason) = error else { Issue.record("ended in \(error)"); return }
        #expect(reason.contains("Unsupported URL"), "reason: \(reason)")
    }

    @Test("A page that never answers yt-dlp: given up at the time limit, yt-dlp stopped; a cancelled opening stops it too")
    func hanging() throws {
        let server = try HangingPageServer()
        let error = try Self.failure(server.url) { $0.timeout = 3 }
        guard case .webPageFailed(let reason) = error else { Issue.record("ended in \(error)"); return }
        #expect(reason.contains("no answer"), "reason: \(reason)")
        try server.waitUntilNoExtractor()

        // Another opening while yt-dlp waits: it goes at once.
        let test = TestPlayer { $0.webPages.timeout = 600 }
        test.player.open(server.url)
        try server.waitForExtractor()
        test.player.open(try Fixtures.path(.h264MP4))
        try test.waitForState("the file to open instead") { $0 == .ready }
        try server.waitUntilNoExtractor()
    }
}

/// A page server that answers Reel (its own user agent) with a page, and a browser's user
/// agent, which yt-dlp sends, with a page that never ends (a byte a second): a site that hangs
/// the extractor for good.
/// Threading: owned by one test.
final class HangingPageServer {
    let port: Int
    private static let script = #"""
    import http.server, socketserver, sys, time
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args): pass
        def do_GET(self):
            if "Mozilla" in self.headers.get("User-Agent", ""):
                # A byte now and then, never the end: no socket timeout ever fires.
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", "100000000")
                self.end_headers()
                try:
                    while True:
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        time.sleep(1)
                except (BrokenPipeError, ConnectionResetError):
                    return
            body = b"<!doctype html><html><head><title>Slow</title></head><body><video src='v.mp4'></video></body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True
    Server(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
    """#

    init() throws {
        port = try LocalPort.free()
        let scriptPath = Fixtures.directory.appendingPathComponent("hanging-page-server.py").path
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let pid = try Command.spawnDetached(["python3", scriptPath, String(port)])
        Reaper.watch([pid])
        try LocalPort.waitUntilAccepting(port, pid: pid, name: "python3 \(scriptPath)")
    }

    var url: String { "http://127.0.0.1:\(port)/slow-page.html" }

    private func extractors() throws -> Int {
        let found = try Command.run(["pgrep", "-f", "yt-dlp.*127.0.0.1:\(port)/"], check: false)
        return found.output.split(separator: "\n").count
    }

    func waitForExtractor() throws {
        try Self.wait("yt-dlp asking the page") { try self.extractors() > 0 }
    }

    func waitUntilNoExtractor() throws {
        try Self.wait("no yt-dlp left") { try self.extractors() == 0 }
    }

    private static func wait(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(TestPlayer.timeout)
        while try !condition() {
            guard Date() < deadline else { throw TestPlayer.Timeout(what: what) }
            usleep(50_000)
        }
    }
}
