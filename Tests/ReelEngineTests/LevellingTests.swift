import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// Loudness levelling, heard: quiet speech broken by loud bangs (`speechAndBangs`) is played
/// into a private null sink with levelling off and on, and the sink's monitor is recorded;
/// FFmpeg's `ebur128` (EBU R128, with true peak) measures each recording. A pure tone is played
/// while levelling is switched on, off and on again: a gap would be a quiet run, a badly
/// joined switch a step a 440 Hz tone cannot take (as in the gapless and click tests). Levelled,
/// a gapless queue of two short items still follows without a gap, and a play at 1.5× switched
/// on while playing keeps all its sound.
/// Threading: serialised; the plays run at once on threads of their own (`AtOnce`), each test
/// judges its recording on its own thread.
@Suite("Loudness levelling", .serialized)
struct LevellingTests {
    enum Play: Int, CaseIterable, Sendable {
        case plain, levelled, toggled, gapless, faster, loop
    }

    /// A recording the device never ran dry in; none if it ran dry in three runs.
    struct Heard: Sendable {
        let samples: [Int16]
        let underruns: Int
        let events: [PlayerEvent]
    }

    /// The media times at which the toggled play switches levelling over.
    static let toggles = [1.0, 2.5, 4.0]

    /// The plays wait for the clock, each into a sink of its own: recorded three at a time
    /// (six real-time players at once ran the sound device dry on two busy cores).
    static let recordings = Once { () -> [Result<Heard, Error>] in
        stride(from: 0, to: Play.allCases.count, by: 3).flatMap { first in
            AtOnce.map(Array(Play.allCases[first..<min(first + 3, Play.allCases.count)])) { play in
                try LevellingTests.record(play)
            }
        }
    }

    static func heard(_ play: Play) throws -> Heard? {
        let heard = try recordings.get()[play.rawValue].get()
        if heard.samples.isEmpty {
            Issue.record("the sound device ran dry \(heard.underruns) times in three runs: the machine is too busy to judge")
            return nil
        }
        return heard
    }

    static func record(_ play: Play) throws -> Heard {
        var underruns = 0
        for _ in 0..<3 {
            let heard = try recordOnce(play)
            if heard.underruns == 0 { return heard }
            underruns += heard.underruns
            print("\(play): the sound device ran dry \(heard.underruns) times (a busy machine): recording again")
        }
        return Heard(samples: [], underruns: underruns, events: [])
    }

    static func recordOnce(_ play: Play) throws -> Heard {
        let path = try Fixtures.path(play == .toggled || play == .faster ? .tone440
                                     : play == .gapless || play == .loop ? .gaplessFirst : .speechAndBangs)
        let sink = try PrivateSink.borrow()
        defer { sink.stop() }
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("\(sink.name).raw").path
        defer { unlink(raw) }
        let recorder = try sink.record(to: raw)
        sink.waitUntilRecording(raw)
        let test = TestPlayer(audio: .pulse) {
            $0.audioDevice = sink.name
            $0.timeObserverInterval = 0.05
        }
        if play == .levelled || play == .gapless || play == .loop { test.player.setLevelling(true) }
        if play == .faster { test.player.setSpeed(1.5) }
        try test.open(path)
        if play == .gapless { test.player.setNext(MediaSource(path: try Fixtures.path(.gaplessSecond))) }
        let mark = test.recorder.count
        if play == .loop {
            test.player.setLoop(ABLoopTests.span)
            try test.waitFor(from: mark, "the loop to be set") {
                if case .loopChanged(let held) = $0 { return held == ABLoopTests.span }
                return false
            }
        }
        test.player.play()
        if play == .loop {
            let back = try ABLoopTests.waitForCount(test, from: mark, 2, "a jump back to the start", ABLoopTests.isJumpBack)
            try test.waitFor(from: back, "playing on after the last jump") {
                if case .time(let p, _) = $0 { return p > ABLoopTests.span.start + 0.2 && p < ABLoopTests.span.end! }
                return false
            }
            // A jump made by seeking (nothing prepared in time on a busy machine) leaves its own
            // short gap: counted with the device running dry, and recorded again.
            let underruns = test.player.statistics.audioUnderruns + test.player.statistics.loopJumpsBySeek
            let events = Array(test.recorder.all[mark...])
            test.player.close()
            usleep(300_000)
            return Heard(samples: try sink.finish(recorder: recorder, path: raw), underruns: underruns, events: events)
        }
        if play == .faster {
            try test.waitFor(from: mark, "playback at 1.5 s") {
                if case .time(let position, _) = $0 { return position >= 1.5 }
                return false
            }
            test.player.setLevelling(true)
        }
        if play == .toggled {
            for (index, at) in toggles.enumerated() {
                try test.waitFor(from: mark, "playback at \(at) s") {
                    if case .time(let position, _) = $0 { return position >= at }
                    return false
                }
                let on = index % 2 == 0
                let before = test.recorder.count
                test.player.setLevelling(on)
                try test.waitFor(from: before, "levelling \(on ? "on" : "off")") {
                    if case .levellingChanged(on) = $0 { return true }
                    return false
                }
            }
        }
        try test.waitFor(from: mark, "the end") { if case .playedToEnd = $0 { return true }; return false }
        let underruns = test.player.statistics.audioUnderruns
        let events = Array(test.recorder.all[mark...])
        test.player.close()
        usleep(300_000)
        return Heard(samples: try sink.finish(recorder: recorder, path: raw), underruns: underruns, events: events)
    }

    /// EBU R128 as FFmpeg's `ebur128` filter measures a recording (mono, 48 kHz).
    struct Loudness: CustomStringConvertible {
        let range: Double
        let truePeak: Double
        let integrated: Double
        var description: String {
            String(format: "I %.1f LUFS, LRA %.1f LU, true peak %.1f dBTP", integrated, range, truePeak)
        }
    }

    static func loudness(_ samples: [Int16]) throws -> Loudness {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-levelling-\(UUID().uuidString).raw").path
        defer { unlink(path) }
        try samples.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
        let result = try Command.run(["ffmpeg", "-hide_banner", "-nostats", "-f", "s16le", "-ar", "48000", "-ac", "1",
                                      "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"])
        let text = String(decoding: result.stderr, as: UTF8.self)
        // The summary comes last: "I: -18.2 LUFS", "LRA: 4.0 LU", and under "True peak:", "Peak: -2.2 dBFS".
        guard let summary = text.range(of: "Summary:") else { throw Failure(text: text) }
        let tail = String(text[summary.upperBound...])
        func value(after label: String, from start: String.Index? = nil) throws -> Double {
            let from = start ?? tail.startIndex
            guard let at = tail.range(of: label, range: from..<tail.endIndex) else { throw Failure(text: tail) }
            let rest = tail[at.upperBound...].drop(while: { $0 == " " })
            guard let number = Double(rest.prefix(while: { !$0.isWhitespace })) else { throw Failure(text: tail) }
            return number
        }
        guard let truePeak = tail.range(of: "True peak:") else { throw Failure(text: tail) }
        return Loudness(range: try value(after: "LRA:"), truePeak: try value(after: "Peak:", from: truePeak.upperBound),
                        integrated: try value(after: "I:"))
    }

    struct Failure: Error, CustomStringConvertible {
        let text: String
        var description: String { "no ebur128 summary in: \(text.suffix(800))" }
    }

    @Test("Levelled, quiet speech and loud bangs come within half the loudness range, under −1 dBTP")
    func levellingHalvesTheRange() throws {
        guard let plain = try Self.heard(.plain), let levelled = try Self.heard(.levelled) else { return }
        let before = try Self.loudness(plain.samples)
        let after = try Self.loudness(levelled.samples)
        print("levelling off: \(before); on: \(after)")
        #expect(before.range > 8, "the fixture itself should span a wide loudness range: \(before)")
        #expect(after.range <= before.range / 2, "levelled \(after) against \(before)")
        #expect(after.truePeak <= -1, "levelled sound peaks too high: \(after)")
        #expect(after.integrated > before.integrated + 3, "the quiet parts were not raised: \(after) against \(before)")
        #expect(levelled.events.contains { if case .levellingChanged(true) = $0 { return true }; return false } == false,
                "levelling was on before opening; no change is reported while playing")
    }

    @Test("Switching levelling while playing leaves no gap and no click")
    func switchingLeavesNoGap() throws {
        guard let toggled = try Self.heard(.toggled) else { return }
        let samples = toggled.samples
        let switches = toggled.events.filter { if case .levellingChanged = $0 { return true }; return false }
        #expect(switches.count == Self.toggles.count, "switches reported: \(switches)")
        let quiet = try #require(GaplessTests.quiet(samples), "nothing was heard")
        print("levelling switched while playing: \(quiet)")
        #expect(quiet.soundSeconds > 5.8, "sound missing: \(quiet)")
        #expect(quiet.longest < 240, "a gap: \(quiet)")
        let steps = AudioContinuityTests.steps(samples, rate: 48000)
        print("levelling switched while playing: \(steps)")
        #expect(Double(steps.largest) < steps.toneLimit * 2, "a click: \(steps)")
        // The switch was heard: somewhere the levelled tone is well above the tone as it is
        // (its first half second, before any switch can be heard).
        guard let first = samples.firstIndex(where: { abs(Int($0)) > 200 }) else { return }
        let plainPeak = samples[first..<min(samples.count, first + 24000)].map { abs(Int($0)) }.max() ?? 0
        #expect(steps.peak > plainPeak * 2, "levelling was not heard: the tone peaks at \(plainPeak), at most \(steps.peak)")
    }

    @Test("Levelled, a gapless queue of two items follows without a gap")
    func gaplessQueue() throws {
        guard let heard = try Self.heard(.gapless) else { return }
        let quiet = try #require(GaplessTests.quiet(heard.samples), "nothing was heard")
        print("levelled gapless queue: \(quiet)")
        #expect(heard.events.contains { if case .nextItemStarted = $0 { return true }; return false }, "the second item did not take over")
        #expect(abs(quiet.soundSeconds - 4.0) < 0.03, "sound missing or doubled: \(quiet)")
        #expect(quiet.longest < 240, "a gap: \(quiet)")
    }

    @Test("At 1.5×, levelling switched on while playing keeps all the sound, without a gap")
    func fasterSwitched() throws {
        guard let heard = try Self.heard(.faster) else { return }
        let quiet = try #require(GaplessTests.quiet(heard.samples), "nothing was heard")
        print("levelling switched at 1.5×: \(quiet)")
        #expect(abs(quiet.soundSeconds - 4.0) < 0.05, "6 s of tone at 1.5× should last 4 s: \(quiet)")
        #expect(quiet.longest < 240, "a gap: \(quiet)")
    }

    @Test("Levelled, an A-B loop goes back to its start without a gap")
    func loopsWithoutGap() throws {
        guard let heard = try Self.heard(.loop) else { return }
        let quiet = try #require(GaplessTests.quiet(heard.samples), "nothing was heard")
        print("levelled A-B loop: \(quiet)")
        #expect(quiet.longest < 240, "a gap at the seam: \(quiet)")
        #expect(quiet.soundSeconds > 2.62 - 0.03, "sound missing: \(quiet)")
    }

    @Test("Levelled, a 100 Mbit/s film plays to its end: the sound decoded ahead is not starved by the picture's queue")
    func highBitratePlaysOn() throws {
        let test = TestPlayer(audio: .null)
        test.player.setLevelling(true)
        try test.open(try Fixtures.path(.highBitrate))
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        defer { presenter.stop() }
        let mark = test.recorder.count
        test.player.play()
        try test.waitFor(from: mark, "the end (a stall never gets there)") { if case .playedToEnd = $0 { return true }; return false }
        let stalls = test.recorder.all[mark...].filter { if case .stateChanged(_, .stalled) = $0 { return true }; return false }
        #expect(stalls.isEmpty, "stalled \(stalls.count) times")
    }
}

