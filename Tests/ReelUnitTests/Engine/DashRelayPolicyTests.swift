@testable import ReelEngine
import Testing

/// How DASH reaches the stream cache, without a server: the relay's addresses, the requests it
/// serves and its answers, and the manifests played as static.
@Suite("DASH relay and manifest policy")
struct DashRelayPolicyTests {
    let address = RelayAddress(port: 4711, token: "secret", manifest: "https://cdn.example:8443/films/a/manifest.mpd?k=1")

    @Test("An http(s) URL and its relay address map to each other; other schemes have none")
    func addresses() {
        let url = "https://cdn.example:8443/films/a/seg-1.m4s?k=1"
        let local = address.local(url)
        #expect(local == "http://127.0.0.1:4711/secret/https/cdn.example:8443/films/a/seg-1.m4s?k=1")
        #expect(address.remote(target: "/secret/https/cdn.example:8443/films/a/seg-1.m4s?k=1") == url)
        #expect(address.local("http://host/x#frag") == "http://127.0.0.1:4711/secret/http/host/x")
        for other in ["file:///etc/passwd", "ftp://host/x", "udp://1.2.3.4:5", "/etc/passwd", "http:///nohost"] {
            #expect(address.local(other) == nil, "\(other)")
        }
        // Only http(s) comes back out, with a host; the token must be the relay's.
        #expect(address.remote(target: "/secret/file/etc/passwd") == nil)
        #expect(address.remote(target: "/secret/ftp/host/x") == nil)
        #expect(address.remote(target: "/secret/https") == nil)
        #expect(address.remote(target: "http://elsewhere/x") == nil)
        #expect(address.remote(target: "//elsewhere/x") == nil)
    }

    @Test("A root-relative reference means the manifest's own origin")
    func rootRelative() {
        #expect(address.remote(target: "/media/x.m4s") == "https://cdn.example:8443/media/x.m4s")
        #expect(address.remote(target: "/other-token/http/host/x") == "https://cdn.example:8443/other-token/http/host/x")
        #expect(RelayAddress.origin(of: "http://user@host:80/a?b") == "http://user@host:80")
    }

    @Test("GET with or without a byte range is served; anything else is refused")
    func requests() {
        let plain = RelayExchange.parse("GET /a HTTP/1.1\r\nHost: x\r\nUser-Agent: Lavf")
        #expect(plain == RelayExchange.Request(target: "/a"))
        let open = RelayExchange.parse("GET /a HTTP/1.1\r\nRange: bytes=100-\r\n")
        #expect(open?.rangeStart == 100 && open?.rangeEnd == nil && open?.hasRange == true)
        let closed = RelayExchange.parse("GET /a HTTP/1.1\r\nrange: bytes=5-9")
        #expect(closed?.rangeStart == 5 && closed?.rangeEnd == 9)
        for bad in ["POST /a HTTP/1.1", "GET /a", "GET /a HTTP/1.1\r\nRange: bytes=9-5",
                    "GET /a HTTP/1.1\r\nRange: bytes=0-1,5-6", "GET /a HTTP/1.1\r\nRange: items=1-2", ""] {
            #expect(RelayExchange.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("Answers give the bytes asked for within the resource, with the range said")
    func answers() {
        let whole = RelayExchange.answer(RelayExchange.Request(target: "/a"), length: 1000)
        #expect(whole.range == 0..<1000 && whole.head.hasPrefix("HTTP/1.1 200") && whole.head.contains("Content-Length: 1000\r\n"))
        var request = RelayExchange.Request(target: "/a")
        request.hasRange = true
        request.rangeStart = 100
        let tail = RelayExchange.answer(request, length: 1000)
        #expect(tail.range == 100..<1000 && tail.head.contains("Content-Range: bytes 100-999/1000\r\n"))
        #expect(tail.head.hasPrefix("HTTP/1.1 206") && tail.head.contains("Content-Length: 900\r\n"))
        request.rangeEnd = 5000
        #expect(RelayExchange.answer(request, length: 1000).range == 100..<1000)
        request.rangeStart = 1000
        request.rangeEnd = nil
        let past = RelayExchange.answer(request, length: 1000)
        #expect(past.range == nil && past.head.hasPrefix("HTTP/1.1 416"))
        #expect(RelayExchange.answer(RelayExchange.Request(target: "/a"), length: nil).head.hasPrefix("HTTP/1.1 200"))
        #expect(RelayExchange.redirect(to: "https://x/y").contains("Location: https://x/y\r\n"))
    }

    @Test("An address is DASH by its path's .mpd or by the server's application/dash+xml")
    func recognition() {
        #expect(DashRecognition.isDash(url: "https://x/a/manifest.mpd", contentType: nil))
        #expect(DashRecognition.isDash(url: "https://x/a/MANIFEST.MPD?token=1", contentType: nil))
        #expect(DashRecognition.isDash(url: "https://x/a/manifest", contentType: "application/dash+xml"))
        #expect(!DashRecognition.isDash(url: "https://x/a/manifest", contentType: "application/octet-stream"))
        #expect(!DashRecognition.isDash(url: "https://x/a/play?file=x.mpd", contentType: nil))
        #expect(!DashRecognition.isDash(url: "https://x/a/index.m3u8", contentType: "application/vnd.apple.mpegurl"))
    }

    @Test("A dynamic manifest with a duration is played as static; a live one and a static one as they are")
    func finishedManifests() {
        let ended = """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011"
            \ttype="dynamic" availabilityStartTime="2026-01-01T00:00:00Z" mediaPresentationDuration="PT4.0S">
            <Period><AdaptationSet mimeType="video/mp4" type="dynamic"/></Period></MPD>
            """
        let made = DashManifest.finished(ended)
        #expect(made?.contains(#"type="static" availabilityStartTime"#) == true, "\(made ?? "nil")")
        // Only the root's type changes.
        #expect(made?.contains(#"<AdaptationSet mimeType="video/mp4" type="dynamic"/>"#) == true)
        let live = ended.replacingOccurrences(of: #" mediaPresentationDuration="PT4.0S""#, with: "")
        #expect(DashManifest.finished(live) == nil)
        #expect(DashManifest.finished(ended.replacingOccurrences(of: "dynamic", with: "static")) == nil)
        #expect(DashManifest.finished("#EXTM3U\n") == nil)
        #expect(DashManifest.isLive(live) && !DashManifest.isLive(ended) && !DashManifest.isLive("#EXTM3U\n"))
    }
}
