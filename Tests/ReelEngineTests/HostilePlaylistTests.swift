import Foundation
import ReelTestSupport
@testable import ReelEngine
import Testing

/// Hostile HLS playlists from a real nginx on 127.0.0.1, played through the stream cache and
/// without it, and downloaded for offline: a playlist naming itself or an endless chain of
/// playlists, 100,000 segments, segments that are all missing. Each ends in a clear error or
/// plays what it can; none hangs or grows without bound. The playlists are written here; the
/// segments are cut by ffmpeg from a fixture.
@Suite("Hostile playlists", .serialized)
struct HostilePlaylistTests {
    let server: WebServer
    let cacheDir: String
    /// A folder of the server holding one-second segments and `media.m3u8` naming them.
    let folder: String

    init() throws {
        server = try WebServer.shared()
        cacheDir = Fixtures.directory.appendingPathComponent("hostile-cache-\(getpid())-\(UUID().uuidString)").path
        folder = "hostile-\(UUID().uuidString)"
        let dir = server.root.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", try Fixtures.path(.h264TS),
                         "-c", "copy", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0", "-hls_playlist_type", "vod",
                         dir.appendingPathComponent("media.m3u8").path])
    }

    private func options(_ change: (inout StreamCacheOptions) -> Void = { _ in }) -> StreamCacheOptions {
        var o = StreamCacheOptions()
        o.directory = cacheDir
        o.retryWindow = 4
        change(&o)
        return o
    }

    private func player(cached: Bool = true) -> TestPlayer {
        let cache = options { $0.enabled = cached }
        return TestPlayer(audio: .null) {
            $0.autoplay = true
            $0.freewheel = true
            $0.streamCache = cache
        }
    }

    private func publish(_ text: String, as name: String) throws -> String {
        try server.publish(text: text, as: "\(folder)/\(name)")
    }

    private static func master(_ variants: [String]) -> String {
        "#EXTM3U\n" + variants.map { "#EXT-X-STREAM-INF:BANDWIDTH=400000\n\($0)\n" }.joined()
    }

    /// Opens `url` and waits for the end or a failure; returns the last state.
    private func playOut(_ url: String, cached: Bool, timeout: Double = 60) throws -> (PlayerState, TestPlayer) {
        let test = player(cached: cached)
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        defer { presenter.stop() }
        test.player.open(url)
        let state = try test.waitForState(timeout: timeout, "the end or a failure of \(url)") { $0 == .ended || $0.error != nil }
        return (state, test)
    }

    @Test("A master playlist naming itself, or a chain of masters without end, fails clearly, cached or not")
    func namesItself() throws {
        let own = try publish(Self.master(["itself.m3u8"]), as: "itself.m3u8")
        // A folder that contains itself: every "loop/" makes a new URL for the same master,
        // as a server inventing playlists would.
        let dir = server.root.appendingPathComponent(folder)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("loop").path, withDestinationPath: ".")
        let chain = try publish(Self.master(["loop/chain.m3u8"]), as: "chain.m3u8")
        for url in [own, chain] {
            for cached in [true, false] {
                let (state, test) = try playOut(url, cached: cached)
                #expect(state.error?.code == "corrupt_data", "\(url) cached: \(cached): \(state)")
                #expect(state.error?.message.contains("master playlist") == true, "\(state.error?.message ?? "")")
                #expect(test.player.statistics.framesShown == 0)
            }
        }
        // The inspector opens remote media without the cache too.
        #expect(throws: PlayerError.self) { try MediaInspector.inspect(try MediaSource(parsing: own)) }
    }

    @Test("A master hiding that it names itself past what is looked at ends at the bound on playlists")
    func hiddenSelfReference() throws {
        let padding = String(repeating: "# padding\n", count: NestedResources.sniffedBytes / 10 + 1)
        let url = try publish("#EXTM3U\n" + padding + "#EXT-X-STREAM-INF:BANDWIDTH=400000\nhidden.m3u8\n", as: "hidden.m3u8")
        for cached in [true, false] {
            let (state, _) = try playOut(url, cached: cached)
            #expect(state.error?.code == "corrupt_data", "cached: \(cached): \(state)")
            #expect(state.error?.message.contains("more than \(NestedResources.maximumPlaylists) playlists") == true,
                    "\(state.error?.message ?? "")")
        }
    }

    @Test("A master naming itself beside a real variant plays the real one to the end")
    func namesItselfBesideARealVariant() throws {
        let url = try publish(Self.master(["beside.m3u8", "media.m3u8"]), as: "beside.m3u8")
        for cached in [true, false] {
            let (state, test) = try playOut(url, cached: cached)
            #expect(state == .ended, "cached: \(cached): \(state)")
            #expect(test.player.statistics.framesShown > 50)
        }
    }

    @Test("Download for offline of a playlist naming itself, or an endless chain, ends with what it names")
    func offlineDownloadEnds() throws {
        let own = try publish(Self.master(["offline-itself.m3u8", "media.m3u8"]), as: "offline-itself.m3u8")
        let path = try OfflineDownload(url: own, options: options()).run { _ in }
        #expect(FileManager.default.fileExists(atPath: path))
        let segments = try FileManager.default.contentsOfDirectory(atPath: server.root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".ts") }
        let cached = Set(StreamCache(options: options()).list().map(\.url))
        for segment in segments { #expect(cached.contains(server.url("\(folder)/\(segment)")), "\(segment) not kept") }

        let dir = server.root.appendingPathComponent(folder)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("again").path, withDestinationPath: ".")
        let chain = try publish(Self.master(["again/offline-chain.m3u8"]), as: "offline-chain.m3u8")
        _ = try OfflineDownload(url: chain, options: options()).run { _ in }
        // The top playlist and the one it names; the chain is not followed further.
        let chained = StreamCache(options: options()).list().filter { $0.url.hasSuffix("offline-chain.m3u8") }
        #expect(chained.count == 2, "\(chained.map(\.url))")
    }

    @Test("A playlist of 100,000 segments opens and plays; offline, it stops at the cache's size limit")
    func hundredThousandSegments() throws {
        let segment = try #require(try FileManager.default.contentsOfDirectory(
            atPath: server.root.appendingPathComponent(folder).path).filter { $0.hasSuffix(".ts") }.sorted().first)
        // Every entry a URL of its own (nginx ignores the query), as 100,000 segments would be.
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for i in 0..<100_000 { text += "#EXTINF:1.0,\n\(segment)?n=\(i)\n" }
        text += "#EXT-X-ENDLIST\n"
        let url = try publish(text, as: "huge.m3u8")
        for cached in [true, false] {
            let test = player(cached: cached)
            let presenter = HeadlessPresenter(player: test.player)
            presenter.start()
            defer { presenter.stop() }
            test.player.open(url)
            try test.waitForState(timeout: 60, "the huge playlist playing") { $0 == .playing || $0.error != nil }
            #expect(test.player.state == .playing, "cached: \(cached): \(test.player.state)")
            #expect(abs((test.player.mediaInfo?.duration ?? 0) - 100_000) < 1, "\(test.player.mediaInfo?.duration ?? -1)")
            try Self.waitUntil("frames shown") { test.player.statistics.framesShown > 50 }
            // A guard, far above what playing takes (about 100 MB), against a copy per segment.
            #expect(Self.residentBytes() < 1 << 30, "resident: \(Self.residentBytes() >> 20) MB")
            test.player.close()
        }

        var caught: PlayerError?
        do {
            _ = try OfflineDownload(url: url, options: options { $0.sizeLimit = 4 << 20 }).run { _ in }
        } catch {
            caught = error
        }
        #expect(caught?.code == "unsupported_source", "\(String(describing: caught))")
        #expect(caught?.message.contains("larger than the cache may hold") == true, "\(caught?.message ?? "")")
    }

    @Test("A playlist whose segments are all missing ends in a network error naming one")
    func segmentsAllMissing() throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for i in 0..<30 { text += "#EXTINF:1.0,\nmissing-\(i).ts\n" }
        text += "#EXT-X-ENDLIST\n"
        let url = try publish(text, as: "missing.m3u8")
        for cached in [true, false] {
            let (state, _) = try playOut(url, cached: cached)
            #expect(state.error?.code == "network_error", "cached: \(cached): \(state)")
            let message = state.error?.message ?? ""
            #expect(message.contains("404") && message.contains("missing-"), "\(message)")
        }
        var caught: PlayerError?
        do { _ = try OfflineDownload(url: url, options: options()).run { _ in } } catch { caught = error }
        #expect(caught?.code == "network_error" && caught?.message.contains("404") == true, "\(String(describing: caught))")
    }

    /// Waits for `condition`, looking every 50 ms; the timeout is only a guard against a hang.
    static func waitUntil(timeout: Double = 60, _ what: String, _ condition: () -> Bool) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            guard Date() < deadline else { throw TestPlayer.Timeout(what: what) }
            usleep(50_000)
        }
    }

    /// The test process's resident memory now (VmRSS).
    static func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
