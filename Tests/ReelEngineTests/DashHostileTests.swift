import Foundation
import ReelTestSupport
@testable import ReelEngine
import Testing

/// Hostile DASH manifests from the test nginx, played through the stream cache and without it:
/// segments named by `file://` URLs, 100,000 segments, a manifest without end. Each keeps the
/// bounds remote media has (no local file read, memory bounded, a clear error).
@Suite("Hostile DASH manifests", .serialized)
struct DashHostileTests {
    let server: WebServer
    let cacheDir: String
    /// A folder of the server holding the timeline layout (`manifest.mpd` and its segments).
    let folder: String

    init() throws {
        server = try WebServer.shared()
        cacheDir = Fixtures.directory.appendingPathComponent("dash-hostile-\(getpid())-\(UUID().uuidString)").path
        folder = "dash-hostile-\(UUID().uuidString)"
        try DashFixtures.publish(.timeline, on: server, as: folder)
    }

    private func player(cached: Bool) -> TestPlayer {
        var cache = StreamCacheOptions()
        cache.directory = cacheDir
        cache.retryWindow = 4
        cache.enabled = cached
        return TestPlayer(audio: .null) {
            $0.autoplay = true
            $0.freewheel = true
            $0.streamCache = cache
        }
    }

    private var manifest: String {
        get throws {
            try String(contentsOf: server.root.appendingPathComponent("\(folder)/manifest.mpd"), encoding: .utf8)
        }
    }

    /// Opens `url` and waits for the end or a failure; returns the last state.
    private func playOut(_ url: String, cached: Bool) throws -> (PlayerState, TestPlayer) {
        let test = player(cached: cached)
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        defer { presenter.stop() }
        test.player.open(url)
        let state = try test.waitForState(timeout: 60, "the end or a failure of \(url)") { $0 == .ended || $0.error != nil }
        return (state, test)
    }

    @Test("Segments named by file:// URLs are never read, cached or not: the protocol whitelist holds")
    func fileSegmentsRefused() throws {
        // A local copy of the very segments: were they read, the presentation would play.
        let local = server.root.appendingPathComponent(folder).path
        let text = try manifest.replacingOccurrences(of: "<Period id=\"0\" start=\"PT0.0S\">",
                                                     with: "<BaseURL>file://\(local)/</BaseURL><Period id=\"0\" start=\"PT0.0S\">")
        #expect(text.contains("<BaseURL>file://"))
        let url = try server.publish(text: text, as: "\(folder)/local-files.mpd")
        for cached in [true, false] {
            let (state, test) = try playOut(url, cached: cached)
            #expect(state.error != nil, "cached: \(cached): \(state)")
            #expect(test.player.statistics.framesShown == 0, "cached: \(cached): \(test.player.statistics.framesShown) shown")
        }
    }

    @Test("A manifest of 100,000 segments opens and plays with memory bounded, cached or not")
    func hundredThousandSegments() throws {
        // A SegmentList naming one real segment 100,000 times, each URL its own (nginx ignores
        // the query), after the real initialisation section.
        var list = "<SegmentList timescale=\"12800\" duration=\"12800\" startNumber=\"1\">"
            + "<Initialization sourceURL=\"init-stream0.m4s\"/>"
        for i in 0..<100_000 { list += "<SegmentURL media=\"chunk-stream0-00001.m4s?n=\(i)\"/>" }
        list += "</SegmentList>"
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static"
              mediaPresentationDuration="PT100000S" minBufferTime="PT2S">
            <Period id="0" start="PT0S"><AdaptationSet id="0" contentType="video" mimeType="video/mp4">
            <Representation id="0" codecs="avc1.64000d" bandwidth="300000" width="320" height="240">\(list)</Representation>
            </AdaptationSet></Period></MPD>
            """
        let url = try server.publish(text: text, as: "\(folder)/huge.mpd")
        for cached in [true, false] {
            let test = player(cached: cached)
            let presenter = HeadlessPresenter(player: test.player)
            presenter.start()
            defer { presenter.stop() }
            test.player.open(url)
            try test.waitForState(timeout: 60, "the huge manifest playing") { $0 == .playing || $0.error != nil }
            #expect(test.player.state == .playing, "cached: \(cached): \(test.player.state)")
            #expect(abs((test.player.mediaInfo?.duration ?? 0) - 100_000) < 1, "\(test.player.mediaInfo?.duration ?? -1)")
            try HostilePlaylistTests.waitUntil("frames shown") { test.player.statistics.framesShown > 20 }
            #expect(HostilePlaylistTests.residentBytes() < 1 << 30, "resident: \(HostilePlaylistTests.residentBytes() >> 20) MB")
            test.player.close()
        }
    }

    @Test("A manifest larger than Reel reads fails clearly through the cache, before the demuxer holds it")
    func endlessManifest() throws {
        let padding = String(repeating: "<!-- padding padding padding padding padding padding padding padding -->\n",
                             count: DashManifest.largest / 70 + 1)
        let text = try manifest.replacingOccurrences(of: "<ProgramInformation>", with: padding + "<ProgramInformation>")
        #expect(text.utf8.count > DashManifest.largest)
        let url = try server.publish(text: text, as: "\(folder)/endless.mpd")
        let (state, test) = try playOut(url, cached: true)
        #expect(state.error?.code == "corrupt_data", "\(state)")
        #expect(state.error?.message.contains("larger than") == true, "\(state.error?.message ?? "")")
        #expect(test.player.statistics.framesShown == 0)
    }
}
