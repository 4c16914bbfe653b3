import Foundation
import ReelTestSupport
@testable import ReelEngine
import Testing

/// DASH presentations made by ffmpeg's dash muxer (`DashFixtures`), served by the test nginx
/// (behind the fault proxy where the server has to go away), played through the stream cache.
/// Oracles from outside Reel: FFmpeg's own framemd5 of the same address (read by FFmpeg's
/// DASH demuxer over its own http), the tone each language has as heard on a null sink, the
/// proxy's count of what was fetched.
@Suite("DASH", .serialized)
struct DashTests {
    let server: WebServer
    let proxy: FaultProxy
    let cacheDir: String

    init() throws {
        server = try WebServer.shared()
        proxy = try FaultProxy(upstream: server.port)
        cacheDir = Fixtures.directory.appendingPathComponent("dash-cache-\(getpid())-\(UUID().uuidString)").path
    }

    private func options() -> StreamCacheOptions {
        var o = StreamCacheOptions()
        o.directory = cacheDir
        o.retryWindow = 4
        return o
    }

    private func player(realTime: Bool = false, audio: PlayerConfiguration.AudioOutputChoice = .null,
                        _ configure: (inout PlayerConfiguration) -> Void = { _ in }) -> TestPlayer {
        let cache = options()
        return TestPlayer(audio: audio) {
            $0.freewheel = !realTime
            $0.streamCache = cache
            configure(&$0)
        }
    }

    /// Publishes `layout` under a folder of its own; returns the manifest's path in the root.
    private func publish(_ layout: DashFixtures.Layout) throws -> String {
        let name = "dash/\(layout.rawValue)-\(UUID().uuidString)"
        try DashFixtures.publish(layout, on: server, as: name)
        return "\(name)/manifest.mpd"
    }

    /// Plays `url` to its end and returns the player (closed by the caller or at its end).
    private func playToEnd(_ url: String, realTime: Bool = false) throws -> TestPlayer {
        let test = player(realTime: realTime) { $0.autoplay = true }
        let presenter = HeadlessPresenter(player: test.player, rate: realTime ? 60 : nil)
        presenter.start()
        defer { presenter.stop() }
        test.player.open(url)
        try test.waitForState(timeout: 60, "the end of \(url)") { $0 == .ended || $0.error != nil }
        #expect(test.player.state == .ended, "\(url): \(test.player.state.error?.message ?? "\(test.player.state)")")
        return test
    }

    /// The frame count FFmpeg's own command line reads from `url`.
    private static func ffmpegFrames(_ url: String) throws -> Int {
        let out = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
                                   "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", url]).output
        // Printed for the stream and again for the program holding it.
        return out.split(separator: "\n").first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1
    }

    @Test("Played in real time from the timeline layout: every picture shown, none dropped, the whole presentation")
    func playsToTheEnd() throws {
        let url = server.url(try publish(.timeline))
        let test = try playToEnd(url, realTime: true)
        let stats = test.player.statistics
        #expect(stats.framesShown == DashFixtures.seconds * DashFixtures.frameRate, "\(stats.framesShown) shown")
        #expect(stats.framesDropped == 0, "\(stats.framesDropped) dropped")
        let info = try #require(test.player.mediaInfo)
        #expect(info.container == "dash")
        #expect(abs((info.duration ?? 0) - Double(DashFixtures.seconds)) < 0.1, "\(info.duration ?? -1)")
        #expect(info.streams.compactMap(\.language).sorted() == ["eng", "fra"])
    }

    @Test("Exact seeks land on FFmpeg's framemd5 frame, in the timeline and the template layouts",
          arguments: [DashFixtures.Layout.timeline, .template])
    func exactSeeks(_ layout: DashFixtures.Layout) throws {
        let url = server.url(try publish(layout))
        let oracle = try FrameMD5.of(url)
        #expect(oracle.entries.count == DashFixtures.seconds * DashFixtures.frameRate)
        let test = player()
        try test.open(url)
        for target in oracle.targets(count: 8, seed: 0xda5) {
            let frame = try #require(try test.seek(to: target, mode: .exact))
            let expected = oracle.frame(at: target)
            #expect(frame.md5() == expected.md5, "\(layout): seek to \(target) showed pts \(frame.pts), expected \(expected.pts)")
        }
    }

    @Test("Choosing the other language's audio set while playing is heard: its tone follows the first one's")
    func audioTrackSwitch() throws {
        let url = server.url(try publish(.timeline))
        let chosen = ReelTestSupport.Locked<(first: String?, then: String?)>((nil, nil))
        let recording = try AudioContinuityTests.record { test in
            try test.open(url)
            let info = try #require(test.player.mediaInfo)
            let first = try #require(info.audioStream?.language)
            let other = try #require(info.streams.first { $0.kind == .audio && $0.language != first })
            try AudioContinuityTests.play(test, for: 1.0)
            let mark = test.recorder.count
            test.player.selectAudioStream(other.index)
            let changed = try test.waitFor(from: mark, "the other language's sound") { event in
                if case .audioStreamChanged = event { return true }
                return false
            }
            if case .audioStreamChanged(let now) = changed { chosen.withLock { $0 = (first, now.audioStream?.language) } }
            try test.waitFor(from: mark, "the sound brought to the picture") { if case .seekCompleted = $0 { return true }; return false }
            usleep(1_200_000)
            test.player.pause()
        }
        let (first, then) = chosen.value
        let firstTone = try #require(first.flatMap { DashFixtures.tones[$0] }, "first language \(first ?? "none")")
        let thenTone = try #require(then.flatMap { DashFixtures.tones[$0] }, "then \(then ?? "none")")
        #expect(firstTone != thenTone)
        let samples = AudioContinuityTests.samples(of: recording)
        guard !samples.isEmpty else { return }
        let loud = samples.indices.filter { abs(Int(samples[$0])) > 1000 }
        guard let start = loud.first, let end = loud.last else {
            Issue.record("nothing was heard")
            return
        }
        let before = AudioContinuityTests.frequency(samples, from: start + 4800, seconds: 0.5)
        let after = AudioContinuityTests.frequency(samples, from: end - 4800 - 24000, seconds: 0.5)
        #expect(abs(before - firstTone) < 10, "before the switch (\(first ?? "")): \(before) Hz")
        #expect(abs(after - thenTone) < 10, "after the switch (\(then ?? "")): \(after) Hz")
    }

    @Test("Played once, it replays to the end and seeks exactly with the server stopped; the cache lists each segment")
    func replaysFromTheCache() throws {
        let path = try publish(.timeline)
        let url = proxy.url(path)
        let oracle = try FrameMD5.of(server.url(path))
        let first = try playToEnd(url)
        let shown = first.player.statistics.framesShown
        #expect(shown == DashFixtures.seconds * DashFixtures.frameRate)
        first.player.close()
        let fetched = try proxy.stats.responses.filter { $0.path.hasSuffix(".m4s") }
        #expect(fetched.count >= DashFixtures.seconds * 2, "\(fetched.map(\.path))")
        // Each segment fetched is listed, whole, under its own URL (as HLS segments are).
        let listed = StreamCache(options: options()).list()
        for response in fetched {
            let item = listed.first { $0.url == proxy.url(String(response.path.dropFirst())) }
            #expect(item?.complete == true, "\(response.path) not cached whole")
        }
        #expect(listed.contains { $0.url == url && $0.complete })

        proxy.stop()
        let replay = try playToEnd(url)
        #expect(replay.player.statistics.framesShown == shown)
        replay.player.close()
        let seeking = player()
        try seeking.open(url)
        for target in oracle.targets(count: 5, seed: 0xcace) {
            let frame = try #require(try seeking.seek(to: target, mode: .exact))
            #expect(frame.md5() == oracle.frame(at: target).md5, "offline seek to \(target): pts \(frame.pts)")
        }
        seeking.player.close()
        try proxy.start()
        // Online again: only the manifest is asked for again, no segment.
        let before = try proxy.stats.responses.count
        _ = try playToEnd(url)
        let again = try proxy.stats.responses.dropFirst(before)
        #expect(!again.contains { $0.path.hasSuffix(".m4s") }, "\(again.map(\.path))")
    }

    @Test("Download for offline keeps every segment of every set; it then plays with the server stopped; a live manifest is refused")
    func offlineDownload() throws {
        let path = try publish(.template)
        let url = proxy.url(path)
        _ = try OfflineDownload(url: url, options: options()).run { _ in }
        let folder = server.root.appendingPathComponent(path).deletingLastPathComponent()
        // The audio sets' seventh segment (the AAC encoder's last few milliseconds) lies past the
        // presentation's duration: FFmpeg's demuxer never asks for it, in playing as here.
        let past = String(format: "-%05d.m4s", DashFixtures.seconds + 1)
        let segments = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".m4s") && !$0.hasSuffix(past) }
        #expect(segments.count == 3 + 3 * DashFixtures.seconds, "\(segments)")
        let listed = StreamCache(options: options()).list()
        for segment in segments {
            let item = try #require(listed.first { $0.url == proxy.url((path as NSString).deletingLastPathComponent + "/" + segment) },
                                    "\(segment) not kept")
            #expect(item.complete)
            #expect(try StreamCacheTests.sha256(item.path) == StreamCacheTests.sha256(folder.appendingPathComponent(segment).path))
        }
        // FFmpeg asks for one segment past a template's end; the 404 is not kept.
        #expect(listed.allSatisfy { $0.complete }, "\(listed.filter { !$0.complete }.map(\.url))")
        proxy.stop()
        defer { try? proxy.start() }
        let test = try playToEnd(url)
        #expect(test.player.statistics.framesShown == DashFixtures.seconds * DashFixtures.frameRate)

        let manifest = try String(contentsOf: folder.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        let live = manifest.replacingOccurrences(of: #"type="static""#, with: #"type="dynamic" availabilityStartTime="2020-01-01T00:00:00Z""#)
            .replacingOccurrences(of: #"mediaPresentationDuration="[^"]*""#, with: "", options: .regularExpression)
        let liveURL = try server.publish(text: live, as: (path as NSString).deletingLastPathComponent + "/live.mpd")
        var caught: PlayerError?
        do { _ = try OfflineDownload(url: liveURL, options: options()).run { _ in } } catch { caught = error }
        #expect(caught?.code == "unsupported_source" && caught?.message.contains("live") == true, "\(String(describing: caught))")
    }

    @Test("A single file per stream, read by byte ranges, plays as FFmpeg reads it and replays with the server stopped")
    func singleFileByteRanges() throws {
        let path = try publish(.singleFile)
        let url = proxy.url(path)
        let expected = try Self.ffmpegFrames(server.url(path))
        #expect(expected > 0)
        let first = try playToEnd(url)
        #expect(first.player.statistics.framesShown == expected)
        first.player.close()
        let ranged = try proxy.stats.responses.filter { $0.path.hasSuffix(".mp4") }
        #expect(!ranged.isEmpty)
        proxy.stop()
        defer { try? proxy.start() }
        let replay = try playToEnd(url)
        #expect(replay.player.statistics.framesShown == expected)
    }

    @Test("A manifest FFmpeg's probe misses (no profiles) is DASH by its .mpd name or its application/dash+xml type, cached or not")
    func recognisedByNameOrType() throws {
        let path = try publish(.template)
        let folder = server.root.appendingPathComponent(path).deletingLastPathComponent()
        let manifest = try String(contentsOf: folder.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        let bare = manifest.replacingOccurrences(of: #"profiles="[^"]*""#, with: "", options: .regularExpression)
        #expect(!bare.contains("profile"))
        let named = try server.publish(text: bare, as: (path as NSString).deletingLastPathComponent + "/bare.mpd")
        // The same manifest without an extension, where nginx gives the DASH type, beside its segments.
        let typedFolder = "typed-dash/\(UUID().uuidString)"
        try FileManager.default.copyItem(at: folder, to: server.root.appendingPathComponent(typedFolder))
        let typed = try server.publish(text: bare, as: typedFolder + "/manifest")
        for url in [named, typed] {
            for cached in [true, false] {
                let test = player { $0.autoplay = true; $0.streamCache.enabled = cached }
                let presenter = HeadlessPresenter(player: test.player)
                presenter.start()
                defer { presenter.stop() }
                test.player.open(url)
                try test.waitForState(timeout: 60, "the end of \(url)") { $0 == .ended || $0.error != nil }
                #expect(test.player.state == .ended, "\(url) cached: \(cached): \(test.player.state)")
                #expect(test.player.mediaInfo?.container == "dash")
                #expect(test.player.statistics.framesShown == DashFixtures.seconds * DashFixtures.frameRate)
            }
        }
    }

    @Test("A finished live presentation (dynamic, with a duration) plays from its start to its end, seekable, and is cached")
    func finishedDynamicManifest() throws {
        let path = try publish(.timeline)
        let folder = server.root.appendingPathComponent(path).deletingLastPathComponent()
        let manifest = try String(contentsOf: folder.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        let dynamic = manifest.replacingOccurrences(of: #"type="static""#,
                                                    with: #"type="dynamic" availabilityStartTime="2020-01-01T00:00:00Z""#)
        #expect(dynamic != manifest)
        let name = (path as NSString).deletingLastPathComponent + "/ended.mpd"
        _ = try server.publish(text: dynamic, as: name)
        let url = proxy.url(name)
        let test = try playToEnd(url)
        #expect(test.player.statistics.framesShown == DashFixtures.seconds * DashFixtures.frameRate)
        #expect(test.player.mediaInfo?.isSeekable == true)
        #expect(StreamCache(options: options()).list().contains { $0.url == url })
    }
}
