import Foundation
import ReelEngine
import ReelTestSupport
import Testing

/// A queue's items follow one another without a gap: the next item set with `setNext` is
/// prepared before the current one ends. Heard: a 440 Hz tone then a 660 Hz tone (FLAC, so
/// the files themselves have no gap) played into a private null sink whose monitor is recorded;
/// a gap is a run of quiet samples between the first and last sound. Seen: a presenter pulls
/// pictures at 60 Hz as a window does, and every picture it gets is compared with FFmpeg's
/// framemd5 of the two files.
@Suite("Gapless queue", .serialized)
struct GaplessTests {
    /// What the presenter got: each picture's hash when it changed, and how often it got none.
    final class Watcher: @unchecked Sendable {
        // Safe: everything is guarded by `lock`.
        private let lock = NSLock()
        private var shown: [String] = []
        private var lastFrame: ObjectIdentifier?
        private var emptyAfterFirst = 0
        private var running = true
        private var thread: Thread?
        /// The longest time between two looks, in seconds: a watcher kept from running (a busy
        /// machine) sees the picture of the moment it wakes, skipping those it slept through.
        private var longestPause = 0.0

        init(player: Player) {
            let thread = Thread { [self] in
                var lastLook: ContinuousClock.Instant?
                while lock.withLock({ running }) {
                    let frame = player.frame(for: .now, refreshInterval: 1.0 / 60)
                    let now = ContinuousClock.now
                    let pause = lastLook.map { ($0.duration(to: now)) / .seconds(1) } ?? 0
                    lastLook = now
                    lock.withLock {
                        longestPause = max(longestPause, pause)
                        if let frame {
                            if ObjectIdentifier(frame) != lastFrame {
                                lastFrame = ObjectIdentifier(frame)
                                // Hashing here is a few hundred microseconds for 320x240.
                                let md5 = frame.md5()
                                if md5 != shown.last { shown.append(md5) }
                            }
                        } else if !shown.isEmpty {
                            emptyAfterFirst += 1
                        }
                    }
                    usleep(16_667)
                }
            }
            self.thread = thread
            thread.start()
        }

        func stop() -> (shown: [String], empty: Int, longestPause: Double) {
            // The thread's block holds `self`: letting go of the thread ends that cycle.
            lock.withLock { running = false; thread = nil }
            usleep(50_000)
            return lock.withLock { (shown, emptyAfterFirst, longestPause) }
        }
    }

    /// Quiet runs in a recording: where the sound is, and its longest silence.
    struct Quiet: CustomStringConvertible {
        let soundSeconds: Double
        let longest: Int
        let at: Double
        var description: String {
            String(format: "%.3f s of sound; longest quiet run %d samples (%.2f ms) at %.3f s",
                   soundSeconds, longest, Double(longest) / 48, at)
        }
    }

    static func quiet(_ samples: [Int16], threshold: Int = 200) -> Quiet? {
        guard let first = samples.firstIndex(where: { abs(Int($0)) > threshold }),
              let last = samples.lastIndex(where: { abs(Int($0)) > threshold }) else { return nil }
        var longest = 0, run = 0, at = 0
        for i in first...last {
            if abs(Int(samples[i])) <= threshold {
                run += 1
                if run > longest { longest = run; at = i - run + 1 }
            } else {
                run = 0
            }
        }
        return Quiet(soundSeconds: Double(last - first) / 48000, longest: longest, at: Double(at) / 48000)
    }

    /// What the gapless play left: the sink's recording, the pictures the presenter got, how
    /// often it got none, and the events from the start of playing.
    struct Heard: Sendable {
        let samples: [Int16]
        let shown: [String]
        let empty: Int
        let events: [PlayerEvent]
    }

    /// What a silent play left: its events from the start of playing, the state, the source
    /// and picture on screen at its end.
    struct SilentRun: Sendable {
        let events: [PlayerEvent]
        let state: PlayerState
        let source: String?
        let pictureMD5: String?
    }

    enum Outcome: Sendable {
        case silentWithSeek(SilentRun)
        case unusableAndWithdrawn([SilentRun])
    }

    /// The suite's silent plays (the one with a seek, and the unusable and withdrawn next
    /// items) each spend their seconds waiting for the clock on a player of their own, so they
    /// play at once, started by whichever test asks first; each test judges its own. The heard
    /// queue plays alone: beside them, on a machine with one core busy, its hand-over came
    /// late enough to leave a gap.
    static let plays = Once { () -> [Result<Outcome, Error>] in
        AtOnce.map([0, 1]) { play -> Outcome in
            play == 0 ? .silentWithSeek(try GaplessTests.playSilentWithSeek())
                : .unusableAndWithdrawn(try GaplessTests.playUnusableAndWithdrawn())
        }
    }

    /// Plays the two items into a private null sink, recording it and the pictures; nil when
    /// the device ran dry in each of three runs.
    static func playHeard() throws -> Heard? {
        let first = try Fixtures.path(.gaplessFirst)
        let second = try Fixtures.path(.gaplessSecond)
        var result: Heard?
        // A machine too busy to feed the sound device leaves gaps that are not the ones under
        // test: such a run is recorded again (up to three times), as in the click tests.
        for _ in 0..<3 {
            let sink = try PrivateSink.borrow()
            defer { sink.stop() }
            let raw = FileManager.default.temporaryDirectory.appendingPathComponent("\(sink.name).raw").path
            defer { unlink(raw) }
            let recorder = try sink.record(to: raw)
            sink.waitUntilRecording(raw)
            let test = TestPlayer(audio: .pulse) { $0.audioDevice = sink.name }
            try test.open(first)
            test.player.setNext(MediaSource(path: second))
            let watcher = Watcher(player: test.player)
            let mark = test.recorder.count
            test.player.play()
            try test.waitFor(from: mark, timeout: 30, "the second item to take over") {
                if case .nextItemStarted = $0 { return true }
                return false
            }
            try test.waitFor(from: mark, timeout: 30, "the end of the second item") {
                if case .playedToEnd = $0 { return true }
                return false
            }
            let underruns = test.player.statistics.audioUnderruns
            let (shown, empty, _) = watcher.stop()
            let events = Array(test.recorder.all[mark...])
            test.player.close()
            usleep(300_000)
            let samples = try sink.finish(recorder: recorder, path: raw)
            if underruns > 0 {
                print("the sound device ran dry \(underruns) times (a busy machine): recording again")
                continue
            }
            result = Heard(samples: samples, shown: shown, empty: empty, events: events)
            break
        }
        return result
    }

    @Test("The next item follows with no gap in the sound and its exact first picture, with no empty screen between")
    func followsWithoutGap() throws {
        let first = try Fixtures.path(.gaplessFirst)
        let second = try Fixtures.path(.gaplessSecond)
        let result = try Self.playHeard()
        let oracleFirst = try FrameMD5.of(first).entries.map(\.md5)
        let oracleSecond = try FrameMD5.of(second).entries.map(\.md5)
        let run = try #require(result, "the sound device ran dry in three runs: the machine is too busy to judge gaps")

        // Sound: both tones back to back, nothing missing, nothing doubled, no silence between.
        let quiet = try #require(Self.quiet(run.samples), "nothing was heard")
        #expect(abs(quiet.soundSeconds - 4.0) < 0.03, "\(quiet)")
        // A 660 Hz tone crosses zero in under a millisecond; one period of the device is 10 ms.
        #expect(quiet.longest < 240, "a gap between the items: \(quiet)")

        // Events: one hand-over, no end of the first item, no state change until the very end.
        let events = run.events
        let handover = try #require(events.firstIndex { if case .nextItemStarted = $0 { return true }; return false })
        if case .nextItemStarted(let source) = events[handover] { #expect(source == MediaSource(path: second)) }
        let endings = events.filter { if case .playedToEnd = $0 { return true }; return false }
        #expect(endings.count == 1, "played_to_end \(endings.count) times")
        let statesAfter = events[handover...].compactMap { e -> PlayerState? in
            if case .stateChanged(_, let to) = e { return to } else { return nil }
        }
        #expect(statesAfter == [.ended], "states after the hand-over: \(statesAfter)")
        let loaded = events[handover...].contains { if case .mediaLoaded(let info) = $0 { return info.sourceName == (second as NSString).lastPathComponent }; return false }
        #expect(loaded, "no mediaLoaded for the second item after the hand-over")

        // Pictures: the first item's in order, then the second's from its very first picture,
        // and the presenter never went without a picture.
        let shown = run.shown
        let firstOfSecond = try #require(shown.firstIndex(of: oracleSecond[0]),
                                         "the second item's first picture was never shown (\(shown.count) shown)")
        #expect(shown[..<firstOfSecond].allSatisfy { oracleFirst.contains($0) },
                "pictures before the second item's first that are not the first item's")
        let afterwards = Array(shown[firstOfSecond...])
        #expect(afterwards.allSatisfy { oracleSecond.contains($0) }, "pictures of neither item after the hand-over")
        let order = afterwards.compactMap { oracleSecond.firstIndex(of: $0) }
        #expect(order == order.sorted(), "the second item's pictures out of order: \(order)")
        #expect(shown.first == oracleFirst[0])
        #expect(run.empty == 0, "the presenter got no picture \(run.empty) times after the first")
    }

    static func isHandover(_ e: PlayerEvent) -> Bool { if case .nextItemStarted = e { return true }; return false }
    static func isEnd(_ e: PlayerEvent) -> Bool { if case .playedToEnd = e { return true }; return false }

    /// A silent player with pictures pulled at 60 Hz, playing `first` with `next` set to follow;
    /// `mark` is the recorder's index where playing began. The caller stops the presenter.
    static func silentQueue(_ first: String, next: String) throws -> (test: TestPlayer, presenter: HeadlessPresenter, mark: Int) {
        let test = TestPlayer(audio: .null)
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        do {
            try test.open(first)
        } catch {
            presenter.stop()
            throw error
        }
        test.player.setNext(MediaSource(path: next))
        let mark = test.recorder.count
        test.player.play()
        return (test, presenter, mark)
    }

    /// The first item plays silently with the second set to follow; half a second in, a seek
    /// to 1 s; until the second item's end.
    static func playSilentWithSeek() throws -> SilentRun {
        let first = try Fixtures.path(.gaplessFirst)
        let second = try Fixtures.path(.gaplessSecond)
        let (test, presenter, mark) = try Self.silentQueue(first, next: second)
        defer { presenter.stop() }
        // The whole first item is within the preparing distance: the follower is prepared at
        // once, then dropped by the seek and prepared again.
        usleep(500_000)
        try test.seek(to: 1.0)
        try test.waitFor(from: mark, "the second item to take over", Self.isHandover)
        try test.waitFor(from: mark, "the end of the second item", Self.isEnd)
        return SilentRun(events: Array(test.recorder.all[mark...]), state: test.player.state,
                         source: test.player.mediaInfo?.sourceName, pictureMD5: test.player.currentFrame?.md5())
    }

    /// The first item plays silently, once with a next item that cannot be opened and once
    /// with one taken back after 0.3 s; both at once, each until the first item's end.
    static func playUnusableAndWithdrawn() throws -> [SilentRun] {
        let first = try Fixtures.path(.gaplessFirst)
        return try AtOnce.map(unusableNexts) { next -> SilentRun in
            let (test, presenter, mark) = try Self.silentQueue(first, next: try next.path())
            defer { presenter.stop() }
            if case .withdrawn = next {
                usleep(300_000)
                test.player.setNext(nil)
            }
            try test.waitFor(from: mark, "the end of the first item", Self.isEnd)
            return SilentRun(events: Array(test.recorder.all[mark...]), state: test.player.state,
                             source: test.player.mediaInfo?.sourceName, pictureMD5: nil)
        }.map { try $0.get() }
    }

    enum UnusableNext: Sendable, CustomStringConvertible {
        case missing, withdrawn
        func path() throws -> String {
            switch self {
            case .missing: "/nonexistent/reel-gapless-missing.mkv"
            case .withdrawn: try Fixtures.path(.gaplessSecond)
            }
        }
        var description: String { self == .missing ? "a missing next item" : "a next item taken back" }
    }
    static let unusableNexts: [UnusableNext] = [.missing, .withdrawn]

    @Test("Without a sound stream to chain into, the next item still takes over at the end; a seek meanwhile starts its preparation over")
    func silentOutputAndSeeks() throws {
        let second = try Fixtures.path(.gaplessSecond)
        guard case .silentWithSeek(let run) = try Self.plays.get()[0].get() else { throw TestPlayer.Timeout(what: "the silent play") }
        #expect(run.events.filter(Self.isHandover).count == 1)
        #expect(run.events.filter(Self.isEnd).count == 1)
        let oracle = try FrameMD5.of(second)
        #expect(run.pictureMD5 == oracle.entries.last!.md5, "the second item did not play to its last picture")
        #expect(run.source == (second as NSString).lastPathComponent)
    }

    @Test("A next item that cannot be opened, or one taken back, leaves the current item to end as usual")
    func unusableOrWithdrawnNext() throws {
        let first = try Fixtures.path(.gaplessFirst)
        guard case .unusableAndWithdrawn(let runs) = try Self.plays.get()[1].get() else { throw TestPlayer.Timeout(what: "the unusable plays") }
        for (next, run) in zip(Self.unusableNexts, runs) {
            #expect(!run.events.contains(where: Self.isHandover), "\(next) took over")
            #expect(run.state == .ended)
            #expect(run.source == (first as NSString).lastPathComponent)
        }
    }
}
