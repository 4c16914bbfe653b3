import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// Seeks and pauses, heard: a player plays a pure 440 Hz tone into a private null sink while it
/// is paused, resumed and sent elsewhere; the sink's monitor is recorded. A pure tone changes by
/// at most A·2π·440/48000 from one sample to the next, so a larger step anywhere in the
/// recording is a click: sound cut off mid-wave, or started mid-wave.
@Suite("Audio continuity", .serialized)
struct AudioContinuityTests {
    /// The largest sample-to-sample step in the recording, and the steepest a 440 Hz tone of
    /// the recording's own peak level can take.
    struct Steps: CustomStringConvertible {
        let largest: Int
        let at: Double
        let toneLimit: Double
        let peak: Int
        var description: String {
            "largest step \(largest) at \(String(format: "%.3f", at)) s; a 440 Hz tone peaking at \(peak) steps at most \(Int(toneLimit))"
        }
    }

    static func steps(_ samples: [Int16], rate: Double) -> Steps {
        var largest = 0, index = 0, peak = 0
        for i in 1..<samples.count {
            let step = abs(Int(samples[i]) - Int(samples[i - 1]))
            if step > largest { largest = step; index = i }
            peak = max(peak, abs(Int(samples[i])))
        }
        return Steps(largest: largest, at: Double(index) / rate, toneLimit: Double(peak) * 2 * .pi * 440 / rate, peak: peak)
    }

    /// A recording of one run the device never ran dry in; none if all three ran dry.
    struct Recording: Sendable {
        let samples: [Int16]
        let underruns: Int
    }

    /// Runs `drive` against a player on a private null sink and returns the monitor's recording.
    /// A gap from the device running dry (a machine too busy to feed it) is a click too, but
    /// not the one under test: such a run is recorded again, up to three times.
    static func record(_ drive: (TestPlayer) throws -> Void) throws -> Recording {
        var underruns = 0
        for _ in 0..<3 {
            let (samples, gaps) = try recordOnce(drive)
            if gaps == 0 { return Recording(samples: samples, underruns: 0) }
            underruns += gaps
            print("the sound device ran dry \(gaps) times (a busy machine): recording again")
        }
        return Recording(samples: [], underruns: underruns)
    }

    /// The samples of `recording`, judged on the test's own thread: none is an issue.
    static func samples(of recording: Recording) -> [Int16] {
        if recording.samples.isEmpty {
            Issue.record("the sound device ran dry \(recording.underruns) times in three runs: the machine is too busy to judge clicks")
        }
        return recording.samples
    }

    /// What each test plays. Each plays in real time into a sink of its own and spends its
    /// seconds waiting for the clock, so the three are recorded at once, started by whichever
    /// test asks first; each test judges its own recording.
    enum Drive: Int, CaseIterable, Sendable {
        case seeks, pauses, audioStreamSwitch

        func run(_ test: TestPlayer) throws {
            switch self {
            case .seeks:
                try test.open(try Fixtures.path(.tone440))
                try AudioContinuityTests.play(test, for: 0.4)
                for target in [3.0137, 1.2071, 4.4419] {
                    let mark = test.recorder.count
                    test.player.seek(to: target, mode: .exact)
                    try test.waitFor(from: mark, "the seek to \(target)") { if case .seekCompleted = $0 { return true }; return false }
                    usleep(400_000)
                }
                test.player.pause()
            case .pauses:
                try test.open(try Fixtures.path(.tone440))
                try AudioContinuityTests.play(test, for: 0.4)
                for _ in 0..<3 {
                    let mark = test.recorder.count
                    test.player.pause()
                    try test.waitForState(from: mark, "paused") { $0 == .ready }
                    usleep(300_000)
                    try AudioContinuityTests.play(test, for: 0.4)
                }
                test.player.pause()
            case .audioStreamSwitch:
                // Two streams of the same length: a 440 Hz tone and an 880 Hz tone.
                try test.open(try Fixtures.path(.twoAudioStreams))
                try AudioContinuityTests.play(test, for: 1.0)
                let mark = test.recorder.count
                test.player.selectAudioStream(2)
                try test.waitFor(from: mark, "the sound brought to the picture") { if case .seekCompleted = $0 { return true }; return false }
                usleep(1_000_000)
                test.player.pause()
            }
        }
    }

    static let recordings = Once { () -> [Result<Recording, Error>] in
        AtOnce.map(Drive.allCases) { drive in try AudioContinuityTests.record(drive.run) }
    }

    static func recording(_ drive: Drive) throws -> [Int16] {
        samples(of: try recordings.get()[drive.rawValue].get())
    }

    static func recordOnce(_ drive: (TestPlayer) throws -> Void) throws -> (samples: [Int16], underruns: Int) {
        let sink = try PrivateSink.borrow()
        defer { sink.stop() }
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("\(sink.name).raw").path
        defer { unlink(raw) }
        let recorder = try sink.record(to: raw)
        sink.waitUntilRecording(raw)
        var underruns = 0
        do {
            let test = TestPlayer(audio: .pulse) { $0.audioDevice = sink.name }
            let presenter = HeadlessPresenter(player: test.player)
            presenter.start()
            defer { presenter.stop(); test.player.close() }
            try drive(test)
            underruns = test.player.statistics.audioUnderruns
        }
        usleep(300_000)
        return (try sink.finish(recorder: recorder, path: raw), underruns)
    }

    static func play(_ test: TestPlayer, for seconds: Double) throws {
        let mark = test.recorder.count
        test.player.play()
        try test.waitForState(from: mark, "playing") { $0 == .playing }
        usleep(UInt32(seconds * 1_000_000))
    }

    @Test("Seeking while playing neither cuts the sound off mid-wave nor starts it mid-wave")
    func seeksDoNotClick() throws {
        let samples = try Self.recording(.seeks)
        guard !samples.isEmpty else { return }
        let steps = Self.steps(samples, rate: 48000)
        print("seeks: \(steps)")
        #expect(steps.peak > 2000, "nothing was heard (peak \(steps.peak))")
        #expect(Double(steps.largest) < steps.toneLimit * 2, "a click: \(steps)")
    }

    @Test("Pausing and playing again neither cuts the sound off mid-wave nor starts it mid-wave")
    func pausesDoNotClick() throws {
        let samples = try Self.recording(.pauses)
        guard !samples.isEmpty else { return }
        let steps = Self.steps(samples, rate: 48000)
        print("pauses: \(steps)")
        #expect(steps.peak > 2000, "nothing was heard (peak \(steps.peak))")
        #expect(Double(steps.largest) < steps.toneLimit * 2, "a click: \(steps)")
    }

    /// The tone's frequency over `seconds` from `start`, by zero crossings (rising ones).
    static func frequency(_ samples: [Int16], from start: Int, seconds: Double) -> Double {
        let end = min(samples.count, start + Int(seconds * 48000))
        guard end - start > 1 else { return 0 }
        var rising = 0
        for i in (start + 1)..<end where samples[i - 1] < 0 && samples[i] >= 0 { rising += 1 }
        return Double(rising) / (Double(end - start) / 48000)
    }

    @Test("Another audio stream chosen while playing is heard at once, from the same moment, with no click")
    func audioStreamSwitchIsHeardAtOnce() throws {
        let samples = try Self.recording(.audioStreamSwitch)
        guard !samples.isEmpty else { return }
        let loud = samples.indices.filter { abs(Int(samples[$0])) > 2000 }
        guard let first = loud.first, let last = loud.last else {
            Issue.record("nothing was heard")
            return
        }
        let before = Self.frequency(samples, from: first + 4800, seconds: 0.5)
        let after = Self.frequency(samples, from: last - 4800 - 24000, seconds: 0.5)
        #expect(abs(before - 440) < 10, "before the switch: \(before) Hz")
        #expect(abs(after - 880) < 10, "after the switch: \(after) Hz")
        // The quiet between the two: the fade out, the seek, the fade in.
        var longest = 0, run = 0
        for i in first...last {
            if abs(Int(samples[i])) < 200 { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        #expect(longest < 48000 / 5, "\(Double(longest) / 48) ms of silence at the switch")
        let steps = Self.steps(samples, rate: 48000)
        // An 880 Hz tone steps twice as far as the 440 Hz limit the helper assumes.
        #expect(Double(steps.largest) < steps.toneLimit * 4, "a click: \(steps)")
        print("audio stream switch: \(before) Hz then \(after) Hz; \(Double(longest) / 48) ms of silence; \(steps)")
    }
}
