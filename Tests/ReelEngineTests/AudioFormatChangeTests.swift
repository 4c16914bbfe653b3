import Foundation
import ReelEngine
import ReelTestSupport
import Testing

/// Sound whose format changes mid-stream, as TV recordings have it: one MPEG-TS whose AAC goes
/// from stereo at 48 kHz (a 440 Hz tone) to 5.1 at 48 kHz (660 Hz) to stereo at 44.1 kHz
/// (880 Hz), two seconds each (`Fixtures.Spec.audioFormatChanges`). Heard through a
/// real PulseAudio null sink: each tone for its two seconds, in order, with no gap at a change
/// longer than FFmpeg's own decode of the file has (the codec's priming), and as long as that
/// decode (a wrong clock would stretch, cut or repeat a part).
@Suite("Audio format changes mid-stream", .serialized)
struct AudioFormatChangeTests {
    static let fixture = Fixtures.Spec.audioFormatChanges
    static var tones: [Int] { fixture.segments.compactMap(\.tone) }

    @Test("Stereo, then 5.1, then 44.1 kHz: each tone heard for its two seconds, in order, without a gap")
    func heardThroughTheChanges() throws {
        let path = try Self.fixture.path
        let stereo = try ManyChannelTests.recordPlayback(of: path)
        guard !stereo.isEmpty else { return }
        let left = stride(from: 0, to: stereo.count - 1, by: 2).map { stereo[$0] }
        // FFmpeg's own decode of the file is the reference: the AAC of each part starts with the
        // encoder's priming, a quiet of its own that is in the media, not in the player.
        let decoded = try Command.run(["ffmpeg", "-v", "error", "-i", path, "-ac", "1", "-ar", "48000", "-f", "s16le", "-"])
        let reference = decoded.stdout.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let ours = try #require(Self.sound(left)), theirs = try #require(Self.sound(reference))
        print("format changes: \(ours.seconds) s of sound, longest quiet \(ours.longestQuietMs) ms; FFmpeg's decode: \(theirs.seconds) s, \(theirs.longestQuietMs) ms")
        #expect(abs(ours.seconds - theirs.seconds) < 0.03, "\(ours.seconds) s of sound where FFmpeg decodes \(theirs.seconds) s")
        #expect(ours.longestQuietMs < theirs.longestQuietMs + 5,
                "\(ours.longestQuietMs) ms of silence at a change; FFmpeg's decode has \(theirs.longestQuietMs) ms")
        let first = ours.first
        // Each part's tone, by rising zero crossings, in the middle of its two seconds.
        for (index, tone) in Self.tones.enumerated() {
            let middle = first + Int((Double(index) * 2 + 0.5) * 48000)
            let frequency = AudioContinuityTests.frequency(left, from: middle, seconds: 1)
            #expect(abs(frequency - Double(tone)) < 10, "part \(index): \(frequency) Hz, not \(tone)")
        }
        // The changes fall where the media has them: 2 s and 4 s after the start.
        for (index, change) in [2.0, 4.0].enumerated() {
            let before = AudioContinuityTests.frequency(left, from: first + Int((change - 0.25) * 48000), seconds: 0.2)
            let after = AudioContinuityTests.frequency(left, from: first + Int((change + 0.05) * 48000), seconds: 0.2)
            #expect(abs(before - Double(Self.tones[index])) < 15, "before \(change) s: \(before) Hz")
            #expect(abs(after - Double(Self.tones[index + 1])) < 15, "after \(change) s: \(after) Hz")
        }
    }

    /// Where the sound starts, how long it lasts, and its longest quiet stretch.
    static func sound(_ samples: [Int16]) -> (first: Int, seconds: Double, longestQuietMs: Double)? {
        guard let first = samples.firstIndex(where: { abs(Int($0)) > 1000 }),
              let last = samples.lastIndex(where: { abs(Int($0)) > 1000 }) else { return nil }
        // A tone crosses zero, but never stays near it for long.
        var longest = 0, run = 0
        for sample in samples[first...last] {
            if abs(Int(sample)) < 300 { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        return (first, Double(last - first) / 48000, Double(longest) / 48)
    }

    @Test("reel-tool plays the joined file to the end with no decode errors and the full length")
    func toolPlaysThrough() throws {
        let result = try ReelToolTests.tool(["play", try Self.fixture.path, "--max-speed", "--audio", "null", "--json"])
        #expect(result.status == 0, "\(result.errors.suffix(2000))")
        let summary = try ReelToolTests.json(try #require(result.output.split(separator: "\n").last))
        #expect(summary["outcome"] as? String == "ended")
        #expect(summary["decode_errors"] as? Int == 0)
    }
}
