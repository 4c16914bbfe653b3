import Foundation
import ReelEngine
import ReelTestSupport
import Testing

/// Playing with nobody taking pictures (a hidden or minimised window): the sound goes on,
/// the clock with it, and when pictures are taken again they are the ones for now.
@Suite("Playing unwatched")
struct UnwatchedPlaybackTests {
    /// What twelve unwatched seconds came to, then the pictures once watched again.
    struct Unwatched: Sendable {
        /// Whether the clock passed 10.5 s, and where it was then (or when it gave up).
        let reached: Bool
        let position: Double
        let underruns: Int
        let dropped: Int
        /// The drift of each picture shown once watched again, in order.
        let drifts: [Double]
    }

    /// What a short file played to with nobody watching.
    struct Ending: Sendable {
        let ended: Bool
        let position: Double
        let state: PlayerState
    }

    /// Both plays run in real time through the sound server and spend their seconds waiting
    /// for the clock, so they play at once, started by whichever test asks first; each test
    /// judges its own.
    static let plays = Once { () -> (unwatched: Result<Unwatched, Error>, ending: Result<Ending, Error>) in
        let both = AtOnce.map([0, 1]) { play -> (Unwatched?, Ending?) in
            play == 0 ? (try UnwatchedPlaybackTests.playUnwatched(), nil) : (nil, try UnwatchedPlaybackTests.playToEnd())
        }
        return (both[0].map { $0.0! }, both[1].map { $0.1! })
    }

    static func playUnwatched() throws -> Unwatched {
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
        let position = test.player.position
        let underruns = test.player.statistics.audioUnderruns
        let dropped = test.player.statistics.framesDropped
        // Shown again: the judgement is on the first ten pictures shown, so wait for them
        // (each event is looked at once, in order).
        let mark = test.recorder.count
        let presenter = HeadlessPresenter(player: test.player, rate: 60)
        presenter.start()
        defer { presenter.stop() }
        var shown = 0
        _ = test.recorder.wait(from: mark, timeout: 10) { event in
            if case .frameShown = event { shown += 1 }
            return shown >= 10
        }
        let drifts = test.recorder.all[mark...].compactMap { event -> Double? in
            if case .frameShown(let report) = event { return report.drift }
            return nil
        }
        return Unwatched(reached: reached != nil, position: position, underruns: underruns, dropped: dropped, drifts: drifts)
    }

    static func playToEnd() throws -> Ending {
        _ = try SoundServer.ensure()
        let test = TestPlayer(audio: .pulse)
        try test.open(try Fixtures.path(.h264MP4))   // 4 s
        let mark = test.recorder.count
        test.player.play()
        let ended = test.recorder.wait(from: mark, timeout: 15) { event in
            if case .playedToEnd = event { return true }
            return false
        }
        return Ending(ended: ended != nil, position: test.player.position, state: test.player.state)
    }

    @Test("Twelve seconds of a 25 Mbit/s file with no presenter: the clock keeps going; pictures then are on time")
    func soundGoesOnWithoutPictures() throws {
        let run = try Self.plays.get().unwatched.get()
        #expect(run.reached, "the clock stopped at \(run.position) s with nobody watching")
        #expect(run.underruns == 0, "the sound ran dry \(run.underruns) times")
        #expect(run.dropped > 200, "pictures nobody took: \(run.dropped) dropped")
        // The first within a few frames of the clock, and in step within a handful more.
        let first = try #require(run.drifts.first, "no picture once watched again")
        #expect(abs(first) < 0.2, "the first picture shown again is \(first) s off the clock")
        #expect(run.drifts.prefix(10).contains { abs($0) < 0.034 }, "not back in step within ten pictures: \(run.drifts.prefix(10))")
    }

    @Test("With nobody taking pictures the end still comes")
    func endWithoutPictures() throws {
        let run = try Self.plays.get().ending.get()
        #expect(run.ended, "a 4 s file played with no presenter never ended (at \(run.position) s)")
        #expect(run.state == .ended)
    }
}
