import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// A sound file of its own played with a picture (Audio ▸ Add Audio File…, and web pages whose
/// picture and sound come apart), heard through the real sound server: the sound heard when
/// play starts at an exact seek's picture is the file's sound at that time, and it goes on
/// without drifting. The oracle is FFmpeg's decoding of the sound file, found in the recording
/// by cross-correlation (white noise matches at one place only).
@Suite("A sound file with the picture", .serialized)
struct ExternalAudioTests {
    static let rate = 48000

    /// The picture alone (the fixture without its sound) and four seconds of white noise.
    static func fixtures() throws -> (video: String, sound: String) {
        (try SoundFileFixtures.pictureOnly(.h264MP4, name: "external-audio-picture.mp4"), try SoundFileFixtures.whiteNoise())
    }

    /// The sound file as FFmpeg decodes it, 48 kHz mono.
    static func oracle(_ sound: String) throws -> [Int16] {
        let pcm = try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", sound, "-f", "s16le", "-ac", "1",
                                   "-ar", String(rate), "-"]).stdout
        return pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Where in `reference` the chunk lies (its first sample's index), searched around
    /// `expected`, and how well it matches there (normalised correlation, 1 = the same).
    static func locate(_ chunk: ArraySlice<Int16>, in reference: [Int16], around expected: Int, within: Int) -> (at: Int, match: Double) {
        let c = chunk.map(Double.init)
        let r = reference.map(Double.init)
        let chunkEnergy = c.reduce(0) { $0 + $1 * $1 }
        var best = (at: -1, match: -2.0)
        c.withUnsafeBufferPointer { c in
            r.withUnsafeBufferPointer { r in
                for lag in max(0, expected - within)...min(r.count - c.count, expected + within) {
                    var dot = 0.0, energy = 0.0
                    for i in 0..<c.count {
                        dot += c[i] * r[lag + i]
                        energy += r[lag + i] * r[lag + i]
                    }
                    let match = dot / max(1, (chunkEnergy * energy).squareRoot())
                    if match > best.match { best = (lag, match) }
                }
            }
        }
        return best
    }

    @Test("Played from an exact seek at 1.5 s, the sound heard is the file's sound at 1.5 s (within a frame) and keeps in step")
    func heardInStep() throws {
        let (video, sound) = try Self.fixtures()
        let reference = try Self.oracle(sound)
        let target = 1.5
        let recording = try AudioContinuityTests.record { test in
            test.player.open(try MediaSource(parsing: video))
            test.player.addAudioFile(sound)
            try test.waitForState("the picture with its sound file") { $0 == .ready }
            #expect(test.player.mediaInfo.map { ExternalAudio.isExternal($0.selectedAudioStream ?? 0) } == true)
            let mark = test.recorder.count
            test.player.seek(to: target, mode: .exact)
            try test.waitFor(from: mark, "the seek") { if case .seekCompleted = $0 { return true }; return false }
            try AudioContinuityTests.play(test, for: 1.6)
            test.player.pause()
        }
        let samples = AudioContinuityTests.samples(of: recording)
        guard !samples.isEmpty else { return }
        guard let start = samples.firstIndex(where: { abs(Int($0)) > 1500 }) else {
            Issue.record("nothing was heard")
            return
        }
        let frame = Int(0.04 * Double(Self.rate))
        for after in [0.1, 1.1] {
            let offset = Int(after * Double(Self.rate))
            // 25 ms of white noise is unlike any other 25 ms of it.
            let length = 1200
            guard start + offset + length <= samples.count else { Issue.record("the recording ends early"); return }
            let chunk = samples[(start + offset)..<(start + offset + length)]
            let expected = Int(target * Double(Self.rate)) + offset
            let found = Self.locate(chunk, in: reference, around: expected, within: Self.rate / 2)
            print("sound file \(after) s after the start: heard \(Double(found.at - expected) / 48) ms from where the picture is, match \(found.match)")
            #expect(found.match > 0.8, "the sound heard is not the file's (best match \(found.match))")
            #expect(abs(found.at - expected) <= frame, "heard \(Double(found.at - expected) / 48) ms away from the picture")
        }
    }

    @Test("A sound file that cannot be read: a warning, and the media plays on with its own sound")
    func unreadable() throws {
        let test = TestPlayer()
        try test.open(try Fixtures.path(.h264MP4))
        let mark = test.recorder.count
        test.player.addAudioFile("/nonexistent/sound.ogg")
        let warning = try test.waitFor(from: mark, "the warning") { if case .warning = $0 { return true }; return false }
        guard case .warning(let said) = warning, case .audioFileFailed(let name, _) = said else {
            Issue.record("warned \(warning)"); return
        }
        #expect(name == "sound.ogg")
        try test.waitForState(from: mark, "the media again") { $0 == .ready }
        #expect(test.player.mediaInfo.map { ExternalAudio.isExternal($0.selectedAudioStream ?? 0) } == false)
        #expect(test.player.mediaInfo?.selectedAudioStream != nil)
    }
}
