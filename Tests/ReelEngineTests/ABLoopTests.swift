import Foundation
import ReelEngine
import ReelTestSupport
import Testing

/// The A-B loop: a one-second span of the gapless fixture (a 440 Hz tone under testsrc2, 25
/// pictures a second) played into a private null sink whose monitor is recorded, as the gapless
/// tests do. Heard: no quiet run where the end's last sample meets the start's first. Seen:
/// every picture the presenter pulls at 60 Hz, against FFmpeg's framemd5 of the file: each jump
/// back shows the picture at the start at once.
@Suite("A-B loop", .serialized)
struct ABLoopTests {
    /// 15.5 and 40.5 pictures in: the start is inside picture 15, the end inside picture 40.
    static let span = LoopSpan(start: 0.62, end: 1.62)
    static let startPicture = 15
    static let endPicture = 40

    static func isJumpBack(_ e: PlayerEvent) -> Bool {
        if case .seekCompleted(let p) = e { return abs(p - span.start) < 0.0005 }
        return false
    }

    /// What a heard loop left.
    struct Heard: Sendable {
        let samples: [Int16]
        let shown: [String]
        let empty: Int
        let events: [PlayerEvent]
    }

    /// Waits until `count` events after `mark` match.
    @discardableResult
    static func waitForCount(_ test: TestPlayer, from mark: Int, _ count: Int, _ what: String,
                             _ match: (PlayerEvent) -> Bool) throws -> Int {
        var from = mark
        for n in 1...count {
            guard let (_, index) = test.recorder.wait(from: from, timeout: TestPlayer.timeout, match) else {
                throw TestPlayer.Timeout(what: "\(what) (\(n) of \(count))")
            }
            from = index + 1
        }
        return from
    }

    /// Plays the span at `speed` into a private sink until it went back `loops` times; nil when
    /// the device ran dry in each of three runs (a machine too busy to judge gaps).
    static func playHeard(speed: Double, loops: Int = 2) throws -> Heard? {
        let path = try Fixtures.path(.gaplessFirst)
        for _ in 0..<3 {
            let sink = try PrivateSink.borrow()
            defer { sink.stop() }
            let raw = FileManager.default.temporaryDirectory.appendingPathComponent("\(sink.name).raw").path
            defer { unlink(raw) }
            let recorder = try sink.record(to: raw)
            sink.waitUntilRecording(raw)
            let test = TestPlayer(audio: .pulse) { $0.audioDevice = sink.name; $0.timeObserverInterval = 0.05 }
            try test.open(path)
            if speed != 1 { test.player.setSpeed(speed) }
            let mark = test.recorder.count
            test.player.setLoop(span)
            try test.waitFor(from: mark, "the loop to be set") {
                if case .loopChanged(let held) = $0 { return held == span }
                return false
            }
            let watcher = GaplessTests.Watcher(player: test.player)
            test.player.play()
            let back = try waitForCount(test, from: mark, loops, "a jump back to the start", isJumpBack)
            // Played on from the start a little: the presenter has pulled the pictures there.
            try test.waitFor(from: back, "playing on after the last jump") {
                if case .time(let p, _) = $0 { return p > span.start + 0.2 && p < span.end! }
                return false
            }
            let underruns = test.player.statistics.audioUnderruns
            let (shown, empty, pause) = watcher.stop()
            let events = Array(test.recorder.all[mark...])
            test.player.close()
            usleep(300_000)
            let samples = try sink.finish(recorder: recorder, path: raw)
            if underruns > 0 {
                print("the sound device ran dry \(underruns) times (a busy machine): recording again")
                continue
            }
            // The watcher slept through a picture (a busy machine): after a jump it would see a
            // later picture than the start's, as a starved screen would; recorded again. A
            // picture lasts 1/25 s of the file, less at a faster speed (27 ms at 1.5×).
            if pause > 1.0 / (25 * speed) {
                print(String(format: "the watcher was kept from looking for %.0f ms (a busy machine): recording again", pause * 1000))
                continue
            }
            // Nothing prepared in time for a jump (a busy machine): it went back by seeking,
            // with the short gap that leaves; recorded again, as for a device running dry.
            let statistics = test.player.statistics
            if statistics.loopJumpsBySeek > 0 {
                print("\(statistics.loopJumpsBySeek) of the jumps went back by seeking (a busy machine): recording again")
                continue
            }
            return Heard(samples: samples, shown: shown, empty: empty, events: events)
        }
        return nil
    }

    /// The pictures shown, as the fixture's picture numbers (nil: none of the file's).
    static func judgePictures(_ run: Heard, oracle: [String]) {
        let numbers = run.shown.map { oracle.firstIndex(of: $0) }
        #expect(!numbers.contains(nil), "pictures that are not the file's")
        let shown = numbers.compactMap { $0 }
        // Every step back is a jump, and each lands on the start's picture, with nothing of
        // the old position between (no stale picture).
        var jumps = 0
        for (before, after) in zip(shown, shown.dropFirst()) where after < before {
            jumps += 1
            #expect(after == startPicture, "a jump back from picture \(before) showed picture \(after)")
            #expect(before >= endPicture - 1, "went back early, from picture \(before)")
        }
        #expect(jumps >= 2, "went back \(jumps) times: \(shown)")
        #expect(shown.allSatisfy { $0 <= endPicture }, "a picture beyond the end was shown: \(shown)")
        #expect(run.empty == 0, "the presenter got no picture \(run.empty) times")
    }

    @Test("Playing inside the span goes back to its start at its end, with no gap in the sound and the start's picture at once")
    func loopsWithoutGap() throws {
        let oracle = try FrameMD5.of(try Fixtures.path(.gaplessFirst)).entries.map(\.md5)
        let run = try #require(try Self.playHeard(speed: 1), "the sound device ran dry or a jump was not prepared in time, in three runs")
        let quiet = try #require(GaplessTests.quiet(run.samples), "nothing was heard")
        // A 440 Hz tone crosses zero in about a millisecond; a seek back would leave tens.
        #expect(quiet.longest < 240, "a gap at the seam: \(quiet)")
        // Up to the second jump alone: the start (0.62 s) and two spans, then a little more.
        #expect(quiet.soundSeconds > 2.62 - 0.03 && quiet.soundSeconds < 2.62 + 1, "\(quiet)")
        #expect(!run.events.contains { if case .playedToEnd = $0 { return true }; return false })
        #expect(run.events.filter(Self.isJumpBack).count >= 2)
        Self.judgePictures(run, oracle: oracle)
    }

    @Test("At one and a half times the speed it still loops without a gap")
    func loopsAtSpeed() throws {
        let oracle = try FrameMD5.of(try Fixtures.path(.gaplessFirst)).entries.map(\.md5)
        let run = try #require(try Self.playHeard(speed: 1.5), "the sound device ran dry or a jump was not prepared in time, in three runs")
        let quiet = try #require(GaplessTests.quiet(run.samples), "nothing was heard")
        #expect(quiet.longest < 240, "a gap at the seam: \(quiet)")
        #expect(quiet.soundSeconds > 2.62 / 1.5 - 0.03 && quiet.soundSeconds < 2.62 / 1.5 + 1, "\(quiet)")
        Self.judgePictures(run, oracle: oracle)
    }

    @Test("A seek past the end plays on to the end of the file; the span is cleared when another item opens")
    func seekPastEndPlaysOn() throws {
        let path = try Fixtures.path(.gaplessFirst)
        let test = TestPlayer(audio: .null)
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        defer { presenter.stop() }
        try test.open(path)
        test.player.setLoop(LoopSpan(start: 0.2, end: 0.8))
        let mark = test.recorder.count
        test.player.play()
        // Without a sound stream to chain into, it still loops (taking over at the end).
        try test.waitFor(from: mark, "a jump back") { if case .seekCompleted(let p) = $0 { return abs(p - 0.2) < 0.0005 }; return false }
        let sought = test.recorder.count
        test.player.seek(to: 1.0, mode: .exact)
        try test.waitFor(from: sought, "the end of the file") { if case .playedToEnd = $0 { return true }; return false }
        let after = Array(test.recorder.all[sought...])
        let backs = after.filter { if case .seekCompleted(let p) = $0 { return abs(p - 0.2) < 0.0005 }; return false }
        #expect(backs.isEmpty, "went back to the start after a seek past the end")
        let opened = test.recorder.count
        try test.open(path)
        #expect(test.recorder.all[opened...].contains { if case .loopChanged(nil) = $0 { return true }; return false },
                "the span was not cleared when the item was opened again")
    }
}
