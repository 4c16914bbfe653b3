import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// Media over HTTP from a real nginx on 127.0.0.1, errors from real failures, and the protocol
/// whitelist against hostile playlists.
@Suite("Network")
struct NetworkTests {
    /// What the play over HTTP saw: each seek's target and picture, what the player said of the
    /// media, and the URL it was given. Threading: a value type.
    struct OverHTTP: Sendable {
        let url: String
        let seeks: [(target: Double, md5: String?)]
        let source: String?
        let duration: Double?
    }

    /// What the play whose data stopped went through: its states in order and the pictures shown.
    /// Threading: a value type.
    struct Stalled: Sendable {
        let states: [String]
        let framesShown: Int
    }

    /// What one of the plays gathered. Threading: a value type.
    enum Outcome: Sendable {
        case overHTTP(OverHTTP)
        case stalled(Stalled)
    }

    /// The play over HTTP (seeks, then its last second) and the play whose data stops for a
    /// while each play on a player (and server) of their own and spend most of their seconds
    /// waiting for the clock or the data, so they play at once, started by whichever of their
    /// tests asks first; each test judges its own.
    static let plays = Once { () -> [Result<Outcome, Error>] in
        AtOnce.map([0, 1]) { play -> Outcome in
            play == 0 ? .overHTTP(try NetworkTests.playOverHTTP()) : .stalled(try NetworkTests.playThroughStall())
        }
    }

    @Test("Plays an MP4 over HTTP to the end, and exact seeks over HTTP match FFmpeg")
    func playsOverHTTP() throws {
        guard case .overHTTP(let run) = try Self.plays.get()[0].get() else { throw TestPlayer.Timeout(what: "the play over HTTP") }
        let oracle = try FrameMD5.of(try Fixtures.path(.h264MP4))
        #expect(run.seeks.count == 3)
        for (target, md5) in run.seeks {
            #expect(md5 != nil, "seek to \(target) over HTTP showed nothing")
            #expect(md5 == oracle.frame(at: target).md5, "seek to \(target) over HTTP")
        }
        #expect(run.source == run.url)
        #expect(abs((run.duration ?? 0) - 4) < 0.1)
    }

    /// Three exact seeks over HTTP, then the last second played to the end.
    static func playOverHTTP() throws -> OverHTTP {
        let server = try WebServer.shared()
        let path = try Fixtures.path(.h264MP4)
        let url = try server.publish(path, as: "clip.mp4")
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(url)
        var seeks: [(target: Double, md5: String?)] = []
        for target in oracle.targets(count: 3, seed: 11) {
            seeks.append((target, try test.seek(to: target)?.md5()))
        }
        let info = test.player.mediaInfo
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        defer { presenter.stop() }
        try test.seek(to: 3.0)
        let mark = test.recorder.count
        test.player.play()
        try test.waitForState(from: mark, "the end over HTTP") { $0 == .ended }
        return OverHTTP(url: url, seeks: seeks, source: info?.source, duration: info?.duration)
    }

    @Test("The format is recognised from the content, whatever the URL says")
    func formatFromContent() throws {
        let server = try WebServer.shared()
        let url = try server.publish(try Fixtures.path(.vp9WebM), as: "no-extension-here")
        let info = try MediaInspector.inspect(try MediaSource(parsing: url))
        #expect(info.container.contains("webm") || info.container.contains("matroska"))
        #expect(info.videoStream?.codec == "vp9")
    }

    @Test("A 404 ends in a network error that says so")
    func notFound() throws {
        let server = try WebServer.shared()
        let test = TestPlayer()
        test.player.open(server.url("nothing-here.mp4"))
        let state = try test.waitForState("failure") { $0.error != nil }
        #expect(state.error?.code == "network_error")
        #expect(state.error?.message.contains("404") == true, "\(state.error?.message ?? "")")
    }

    @Test("A refused connection ends in a network error")
    func refused() throws {
        let port = try { let s = try SilentServer(); return s.port }()  // bound, then closed: nobody listens
        let test = TestPlayer()
        test.player.open("http://127.0.0.1:\(port)/clip.mp4")
        let state = try test.waitForState("failure") { $0.error != nil }
        #expect(state.error?.code == "network_error")
    }

    @Test("A remote playlist cannot make Reel read local files")
    func remotePlaylistCannotReachLocalFiles() throws {
        let server = try WebServer.shared()
        // A real local media file the playlist tries to pull in.
        let local = try Fixtures.path(.h264TS)
        let playlist = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:4
        #EXT-X-MEDIA-SEQUENCE:0
        #EXTINF:4.0,
        file://\(local)
        #EXT-X-ENDLIST

        """
        let url = try server.publish(text: playlist, as: "hostile.m3u8")
        let test = TestPlayer()
        test.player.open(url)
        let state = try test.waitForState("the hostile playlist to be refused") { state in
            state.error != nil || state == .ready
        }
        #expect(state.error != nil, "a remote playlist opened a local file")
        #expect(test.player.statistics.framesDecoded == 0)
    }

    @Test("A remote HLS playlist of remote segments plays")
    func remoteHLSPlays() throws {
        let server = try WebServer.shared()
        let source = try Fixtures.path(.h264TS)
        let dir = server.root.appendingPathComponent("hls")
        if !FileManager.default.fileExists(atPath: dir.appendingPathComponent("index.m3u8").path) {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", source, "-c", "copy",
                             "-f", "hls", "-hls_time", "1", "-hls_list_size", "0",
                             dir.appendingPathComponent("index.m3u8").path])
        }
        // Freewheeling, pictures taken as fast as they come: what is checked is that every
        // segment is fetched and played, not the pace.
        let test = TestPlayer(audio: .null) { $0.autoplay = true; $0.freewheel = true }
        let presenter = HeadlessPresenter(player: test.player, rate: nil)
        presenter.start()
        defer { presenter.stop() }
        try test.open(server.url("hls/index.m3u8"))
        try test.waitForState("the end of the HLS stream") { $0 == .ended }
        #expect(test.player.statistics.framesShown > 50)
    }

    @Test("When data stops coming, playback stalls, and resumes when it comes back")
    func stallsAndResumes() throws {
        guard case .stalled(let run) = try Self.plays.get()[1].get() else { throw TestPlayer.Timeout(what: "the stalled play") }
        let stall = try #require(run.states.firstIndex(of: "stalled"), "never stalled: \(run.states)")
        #expect(run.states[stall...].contains("playing"), "did not resume: \(run.states)")
        #expect(run.framesShown > 100)
    }

    /// Plays a file whose data from the middle on stops until the player says it has stalled,
    /// then comes; until the end.
    static func playThroughStall() throws -> Stalled {
        let path = try Fixtures.path(.h264MP4)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        // The data from the middle on stops until the player says it has stalled (at most a
        // minute); the index at the end of the MP4, read at opening, still comes.
        let server = try StallingServer(serving: path, stallAfter: size / 2, through: size - size / 10, for: 60)
        let test = TestPlayer(audio: .null) { $0.autoplay = true }
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        defer { presenter.stop() }
        try test.open(server.url)
        try test.waitForState(timeout: 60, "the stall") { $0 == .stalled || $0 == .ended }
        server.release()
        try test.waitForState(timeout: 60, "the end") { $0 == .ended }
        return Stalled(states: test.states.map(\.name), framesShown: test.player.statistics.framesShown)
    }
}

