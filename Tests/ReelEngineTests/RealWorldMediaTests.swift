import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// The engine on files nobody here generated (see `DebianMedia`), checked against FFmpeg's
/// own tools: ffprobe for what is in them, framemd5 for exact seeks.
@Suite("Real-world media")
struct RealWorldMediaTests {
    static let videos = [DebianMedia.mpegPS, DebianMedia.vp8Screencast]
    static let all = videos + [DebianMedia.vorbisSound, DebianMedia.wavSample]

    @Test("Probing agrees with ffprobe", arguments: all)
    func probeAgreesWithFFprobe(_ file: DebianMedia.File) throws {
        let path = try DebianMedia.path(file)
        let info = try MediaInspector.inspect(MediaSource(path: path))
        let probe = try Command.run(["ffprobe", "-v", "error", "-show_entries",
                                     "stream=codec_name,width,height,sample_rate,channels:format=duration",
                                     "-of", "json", path]).stdout
        let json = try #require(try JSONSerialization.jsonObject(with: probe) as? [String: Any])
        let streams = try #require(json["streams"] as? [[String: Any]])
        #expect(info.streams.map(\.codec) == streams.map { $0["codec_name"] as? String ?? "" })
        for (mine, theirs) in zip(info.streams, streams) {
            #expect(mine.width == theirs["width"] as? Int)
            #expect(mine.height == theirs["height"] as? Int)
            #expect(mine.channels == theirs["channels"] as? Int)
            #expect(mine.sampleRate == (theirs["sample_rate"] as? String).flatMap { Int($0) })
        }
        let duration = Double((json["format"] as? [String: Any])?["duration"] as? String ?? "") ?? -1
        #expect(abs((info.duration ?? 0) - duration) < 0.01)
    }

    @Test("Exact seeks match FFmpeg's framemd5", arguments: videos)
    func exactSeeks(_ file: DebianMedia.File) throws {
        let path = try DebianMedia.path(file)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        for target in oracle.targets(count: 6, seed: 2026) + [1_000] {
            let frame = try #require(try test.seek(to: target))
            let expected = oracle.frame(at: target)
            #expect(frame.md5() == expected.md5, "\(file.testDescription) at \(target): pts \(frame.pts), expected \(expected.pts)")
        }
    }

    @Test("Plays through to the end, every frame decoded", arguments: all)
    func playsThrough(_ file: DebianMedia.File) throws {
        let path = try DebianMedia.path(file)
        let test = TestPlayer(audio: .null) { $0.freewheel = true; $0.autoplay = true }
        let presenter = HeadlessPresenter(player: test.player, rate: nil)
        presenter.start()
        defer { presenter.stop() }
        try test.open(path)
        try test.waitForState("the end") { $0 == .ended }
        let stats = test.player.statistics
        if test.player.mediaInfo?.videoStream != nil {
            #expect(stats.framesDecoded == (try FrameMD5.of(path)).entries.count)
            #expect(stats.framesShown == stats.framesDecoded)
        } else {
            #expect(stats.audioSamplesDecoded > 0)
        }
        #expect(stats.decodeErrors == 0)
    }
}
