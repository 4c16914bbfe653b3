import Foundation
import ReelTestSupport
@testable import ReelEngine
import Testing

/// The stream cache's real-time plays (a stall, a trickle, a server restarting, a server gone),
/// made at once for the two tests that judge them.
extension StreamCacheTests {
    /// The stall and the server restart, each with a second play beside it, all four through
    /// proxies of their own into a cache of their own: their seconds are spent waiting for the
    /// clock and the proxies. Started by whichever of the two tests asks first; each judges its
    /// own plays.
    static let realTimePlays = Once { () throws -> [Result<[RealTimePlay], Error>] in
        let server = try WebServer.shared()
        let cacheDir = Fixtures.directory.appendingPathComponent("stream-cache-\(getpid())-\(UUID().uuidString)").path
        return AtOnce.map([false, true]) { restart in
            restart ? try restartPlays(server, cacheDir) : try stallPlays(server, cacheDir)
        }
    }

    /// What a play left: its states, where it ended, and the cache's copy of what it played
    /// beside the sha256 of the file served.
    struct RealTimePlay: Sendable {
        let states: [String]
        let state: PlayerState
        let cached: StreamCache.Item?
        let cachedSHA: String?
        let sourceSHA: String
        let url: String

        init(_ test: TestPlayer, url: String, source: String, cacheDir: String) throws {
            states = test.states.map(\.name)
            state = test.player.state
            self.url = url
            if state == .ended {
                do {
                    try test.waitForDownloadFinished()
                } catch {
                    // Played to its end, yet the cache never said the whole file is there: say
                    // what it holds and what the play went through, to find where the bytes went.
                    let item = StreamCache(options: StreamCacheTests.options(cacheDir)).list().first { $0.url == url }
                    throw TestPlayer.Timeout(what: "the download finished for \(url): the cache holds \(item.map { "\($0.cachedBytes) of \($0.length ?? -1) bytes, complete \($0.complete)" } ?? "nothing"); states \(states); events \(test.recorder.all.suffix(12))")
                }
            }
            cached = StreamCache(options: StreamCacheTests.options(cacheDir)).list().first { $0.url == url }
            cachedSHA = try cached.map { try StreamCacheTests.sha256($0.path) }
            sourceSHA = try StreamCacheTests.sha256(source)
        }

        func expectCachedCopyIsExact() throws {
            let item = try #require(cached, "\(url) not in the cache")
            #expect(item.complete, "\(url) cached only in part: \(item.cachedBytes) of \(item.length ?? -1)")
            #expect(cachedSHA == sourceSHA)
        }
    }

    /// The middle of the file is slow to come; a trickle plays meanwhile (both wait for the clock).
    static func stallPlays(_ server: WebServer, _ cacheDir: String) throws -> [RealTimePlay] {
        let source = try Fixtures.path(.h264MP4)
        let size = try FileManager.default.attributesOfItem(atPath: source)[.size] as! Int
        let proxy = try FaultProxy(upstream: server.port)
        let name = "cache/stall-\(UUID().uuidString)"
        _ = try server.publish(source, as: name)
        let url = proxy.url(name)
        // The middle of the file is slow to come, on the first connection and two more.
        try proxy.set(["stall_at": size / 2, "stall_seconds": 4, "stall_count": 3])
        let trickleProxy = try FaultProxy(upstream: server.port)
        let trickleName = "cache/trickle-\(UUID().uuidString)"
        _ = try server.publish(source, as: trickleName)
        let slow = trickleProxy.url(trickleName)
        try trickleProxy.set(["rate": size / 3])  // about 3 s for a 4 s clip, in 16 KiB steps
        let trickle = player(cacheDir, realTime: true)
        let tricklePresenter = HeadlessPresenter(player: trickle.player)
        tricklePresenter.start()
        defer { tricklePresenter.stop() }
        trickle.player.open(slow)

        let test = player(cacheDir, realTime: true)
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        defer { presenter.stop() }
        test.player.open(url)
        try test.waitForState(timeout: 60, "the end of \(url)") { $0 == .ended || $0.error != nil }
        try trickle.waitForState(timeout: 60, "the end of the trickle") { $0 == .ended || $0.error != nil }
        return [try RealTimePlay(test, url: url, source: source, cacheDir: cacheDir),
                try RealTimePlay(trickle, url: slow, source: source, cacheDir: cacheDir)]
    }

    /// The server restarts mid-download; beside it, a new, uncached URL whose server goes for good.
    static func restartPlays(_ server: WebServer, _ cacheDir: String) throws -> [RealTimePlay] {
        let source = try Fixtures.path(.h264MP4)
        let size = try FileManager.default.attributesOfItem(atPath: source)[.size] as! Int
        // Gone for good: a new, uncached URL fails within the retry window with a clear error.
        // Through a proxy of its own, while the restart below plays. A window of four seconds
        // gives up after the same retries a longer one starts with (0.2, 0.4, 0.8, 1.6 s apart),
        // well within the restart's play; the restart is what needs the window to outlast an
        // outage. (A one-second window also ended this play before it was playing, once in
        // seven runs with a core taken: the four players and proxies of this suite's two tests
        // share two cores, and a transfer that stumbles for a second while opening is what a
        // retry window is for.)
        let goneProxy = try FaultProxy(upstream: server.port)
        let goneName = "cache/gone-\(UUID().uuidString)"
        _ = try server.publish(source, as: goneName)
        try goneProxy.set(["rate": size / 4])
        let second = player(cacheDir, realTime: true) { $0.retryWindow = 4 }
        let presenter2 = HeadlessPresenter(player: second.player)
        presenter2.start()
        defer { presenter2.stop() }
        second.player.open(goneProxy.url(goneName))
        try second.waitForState("playing") { $0 == .playing }
        goneProxy.stop()

        let proxy = try FaultProxy(upstream: server.port)
        let name = "cache/restart-\(UUID().uuidString)"
        _ = try server.publish(source, as: name)
        let url = proxy.url(name)
        try proxy.set(["rate": size / 4])
        let test = player(cacheDir, realTime: true)
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        defer { presenter.stop() }
        test.player.open(url)
        try test.waitForState("playing") { $0 == .playing }
        proxy.stop()
        sleep(1)
        try proxy.start()
        try test.waitForState(timeout: 60, "the end through a restart") { $0 == .ended || $0.error != nil }
        try second.waitForState(timeout: 60, "failure") { $0.error != nil || $0 == .ended }
        return [try RealTimePlay(test, url: url, source: source, cacheDir: cacheDir),
                try RealTimePlay(second, url: goneProxy.url(goneName), source: source, cacheDir: cacheDir)]
    }
}
