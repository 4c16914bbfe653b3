import Foundation
import ReelEngine
import ReelTestSupport
import Testing

/// Playing with nobody taking pictures (a hidden or minimised window): the sound goes on,
/// the clock with it, and when pictures are taken again they are the ones for now.
@Suite("Playing unwatched")
struct UnwatchedPlaybackTests {
    @Test("Twelve seconds of a 25 Mbit/s file with no presenter: the clock keeps going; pictures then are on time")
    func soundGoesOnWithoutPictures() throws {
        _ = try SoundServer.ensure()
        let clip = try Fixtures.path(.heavyVideo)
        let test = TestPlayer(audio: .pulse) { $0.observesEveryFrame = true }
        try test.open(clip)
        test.player.play()
        try test.waitForState("playing") { $0 == .playing }
        // No presenter: nothing pulls. The engine's queues hold a few seconds of this file, so
        // a decoder that waited for pictures to be taken would stop the sound well before 12 s.
        let playing = test.recorder.count
        let reached = test.recorder.wait(from: playing, timeout: 60) { event in
            if case .time(let position, _) = event { return position > 10.5 }
            return false
        }
        #expect(reached != nil, "the clock stopped at \(test.player.position) s with nobody watching")
        #expect(test.player.statistics.audioUnderruns == 0, "the sound ran dry \(test.player.statistics.audioUnderruns) times")
        #expect(test.player.statistics.framesDropped > 200, "pictures nobody took: \(test.player.statistics.framesDropped) dropped")
        // Shown again: the first picture taken is the one for the clock's time.
        let mark = test.recorder.count
        let presenter = HeadlessPresenter(player: test.player, rate: 60)
        presenter.start()
        defer { presenter.stop() }
        // The judgement is on the first ten pictures shown: wait for them (each event is
        // looked at once, in order).
        var shown = 0
        _ = test.recorder.wait(from: mark, timeout: 10) { event in
            if case .frameShown = event { shown += 1 }
            return shown >= 10
        }
        let drifts = test.recorder.all[mark...].compactMap { event -> Double? in
            if case .frameShown(let report) = event { return report.drift }
            return nil
        }
        // The first within a few frames of the clock, and in step within a handful more.
        let first = try #require(drifts.first, "no picture once watched again")
        #expect(abs(first) < 0.2, "the first picture shown again is \(first) s off the clock")
        #expect(drifts.prefix(10).contains { abs($0) < 0.034 }, "not back in step within ten pictures: \(drifts.prefix(10))")
    }

    @Test("With nobody taking pictures the end still comes")
    func endWithoutPictures() throws {
        _ = try SoundServer.ensure()
        let test = TestPlayer(audio: .pulse)
        try test.open(try Fixtures.path(.h264MP4))   // 4 s
        let mark = test.recorder.count
        test.player.play()
        let ended = test.recorder.wait(from: mark, timeout: 15) { event in
            if case .playedToEnd = event { return true }
            return false
        }
        #expect(ended != nil, "a 4 s file played with no presenter never ended (at \(test.player.position) s)")
        #expect(test.player.state == .ended)
    }
}
