import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// Playback speed, heard: `reel-tool play --speed` into a null sink of its own, recorded from
/// that sink's monitor. The recording tells both how long the sound lasted and its pitch.
@Suite("Playback speed")
struct PlaybackSpeedTests {
    /// What a recording of a 440 Hz tone says: seconds of sound and its frequency.
    struct Heard: CustomStringConvertible {
        let seconds: Double
        let frequency: Double
        var description: String { "\(String(format: "%.2f", seconds)) s of sound at \(String(format: "%.1f", frequency)) Hz" }
    }

    /// Plays `clip` at `speed` into a private null sink and analyses what came out.
    static func hear(_ clip: String, speed: Double) throws -> Heard {
        let sink = try PrivateSink.borrow()
        defer { sink.stop() }
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("\(sink.name).raw").path
        defer { unlink(raw) }
        let recorder = try sink.record(to: raw)
        sink.waitUntilRecording(raw)
        let played = try Command.run([ReelToolTests.binary, "play", clip, "--speed", String(speed)],
                                     environment: ["PULSE_SERVER": sink.server, "PULSE_SINK": sink.name,
                                                   "REEL_FFMPEG_LOG": "quiet"],
                                     check: false)
        usleep(300_000)
        let samples = try sink.finish(recorder: recorder, path: raw)
        guard played.status == 0 else { throw Command.Failure(command: ["reel-tool", "play", clip], result: played) }
        return analyse(samples, rate: 48000)
    }

    /// Sound is where 10 ms windows are louder than -30 dBFS; the pitch comes from upward zero
    /// crossings inside the sound, away from its edges.
    static func analyse(_ samples: [Int16], rate: Double) -> Heard {
        let window = Int(rate / 100)
        var loud: [Int] = []
        for start in stride(from: 0, to: samples.count - window, by: window) {
            var sum = 0.0
            for s in samples[start..<start + window] { sum += Double(s) * Double(s) }
            if (sum / Double(window)).squareRoot() > 32768 * 0.03 { loud.append(start) }
        }
        guard let first = loud.first, let last = loud.last, last > first + 20 * window else { return Heard(seconds: 0, frequency: 0) }
        let from = first + 5 * window, to = last - 5 * window
        var crossings = 0
        for i in (from + 1)..<to where samples[i - 1] < 0 && samples[i] >= 0 { crossings += 1 }
        return Heard(seconds: Double(last + window - first) / rate, frequency: Double(crossings) * rate / Double(to - from))
    }

    /// What the speed commands did to a player playing: how far its clock moved at 2× in a
    /// stretch of wall time, and the speed it kept for the next file. Threading: a value type.
    struct Commanded: Sendable {
        let from: Double
        let advanced: Double
        let wall: Double
        let speedForNextFile: Double
    }

    /// One of the suite's real-time plays. Threading: a value type.
    enum Play: Sendable {
        case heard(speed: Double)
        case commanded
    }

    /// What one of the plays gathered. Threading: a value type.
    enum Outcome: Sendable {
        case heard(Heard)
        case commanded(Commanded)
    }

    static let speeds = [2.0, 0.5]

    /// The suite's plays: the tone at both speeds, each into a sink of its own, and the player
    /// given speed commands while playing. Each spends its seconds waiting for the clock, so
    /// all play at once, started by whichever test asks first; each test judges its own.
    static let plays = Once { () throws -> [Result<Outcome, Error>] in
        let clip = try Fixtures.path(.tone440Short)
        return AtOnce.map(speeds.map(Play.heard) + [.commanded]) { play -> Outcome in
            switch play {
            case .heard(let speed): return .heard(try PlaybackSpeedTests.hear(clip, speed: speed))
            case .commanded: return .commanded(try PlaybackSpeedTests.playWithSpeedCommands())
            }
        }
    }

    // A 3 s tone judges as much as a longer one: the bounds are a share of the expected length,
    // so a wrong speed misses them alike, and a fixed loss at the start or end is a larger share
    // of a shorter sound; even at 2× the pitch is counted over about 600 periods.
    @Test("At 2× a 3 s tone lasts about 1.5 s and keeps its 440 Hz pitch; at 0.5× about 6 s, same pitch")
    func pitchIsKept() throws {
        let seconds = 3.0
        let plays = try Self.plays.get()
        for (speed, outcome) in zip(Self.speeds, plays) {
            guard case .heard(let heard) = try outcome.get() else { throw TestPlayer.Timeout(what: "the play at \(speed)×") }
            let expected = seconds / speed
            print("speed \(speed): \(heard)")
            #expect(abs(heard.seconds - expected) < expected * 0.15, "at \(speed)×: heard \(heard), expected about \(expected) s")
            #expect(abs(heard.frequency - 440) < 8, "at \(speed)×: heard \(heard): the pitch moved")
        }
    }

    @Test("Speed applies at once while playing, stays for the next file, and is clamped to 0.25…4")
    func speedCommand() throws {
        guard case .commanded(let run) = try Self.plays.get()[Self.speeds.count].get() else {
            throw TestPlayer.Timeout(what: "the commanded play")
        }
        #expect(run.advanced > run.wall * 1.5 && run.advanced < run.wall * 2.5,
                "at 2× the clock moved \(run.advanced) s in \(run.wall) s, from \(run.from)")
        #expect(run.speedForNextFile == 0.25)
    }

    /// Plays a minute of film, sets 2× a moment in and measures the clock for two seconds, asks
    /// for 10× and 0.01× (each must come back clamped), then opens another file.
    static func playWithSpeedCommands() throws -> Commanded {
        try SoundServer.ensure()
        let test = TestPlayer(audio: .pulse) { $0.autoplay = true }
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        defer { presenter.stop() }
        try test.open(try Fixtures.path(.longSmall))
        try test.waitFor("a moment of playing") { event in
            if case .time(let p, _) = event { return p > 0.3 }
            return false
        }
        test.player.setSpeed(2)
        try test.waitFor("the speed event") { if case .speedChanged(2) = $0 { return true }; return false }
        try test.waitFor("the restart at the new speed") { if case .seekCompleted = $0 { return true }; return false }
        usleep(300_000)
        let a = test.player.position, t0 = Date()
        usleep(2_000_000)
        let advanced = test.player.position - a, wall = Date().timeIntervalSince(t0)
        test.player.setSpeed(10)
        try test.waitFor("clamped to 4") { if case .speedChanged(4) = $0 { return true }; return false }
        test.player.setSpeed(0.01)
        try test.waitFor("clamped to 0.25") { if case .speedChanged(0.25) = $0 { return true }; return false }
        try test.open(try Fixtures.path(.h264MP4))
        try test.waitForState("playing again") { $0 == .playing }
        return Commanded(from: a, advanced: advanced, wall: wall, speedForNextFile: test.player.speed)
    }
}
