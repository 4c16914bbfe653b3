import Foundation
@testable import ReelEngine
import Testing

/// The cross-fade loudness levelling is switched with while playing, as a plain value; and the
/// levelling step on a synthetic tone, fed by hand without a decoder or a thread: every sample
/// of time comes out once, in order, and levelling off gives back the sound as it was.
/// Threading: none; plain values and one levelling step fed on the test's thread.
@Suite("Loudness levelling's switch")
struct LevellingCrossFadeTests {
    @Test("Switched on, the levelled share rises one step a sample to all of it, and stays")
    func fadesIn() {
        var fade = LevellingCrossFade(rate: 1000, levelled: false)
        #expect(fade.length == 50)
        #expect(fade.isDry)
        fade.levelled = true
        let weights = (0..<60).map { _ in fade.nextWeight() }
        #expect(weights.first == 1 / Float(50))
        #expect(zip(weights, weights.dropFirst()).allSatisfy { next in next.1 >= next.0 && next.1 - next.0 <= 1 / Float(50) + 1e-6 })
        #expect(weights[49] == 1 && weights.last == 1)
        #expect(fade.isWet)
    }

    @Test("Switched back halfway, the fade turns round from where it is, never jumping")
    func turnsRound() {
        var fade = LevellingCrossFade(rate: 1000, levelled: false)
        fade.levelled = true
        for _ in 0..<20 { _ = fade.nextWeight() }
        fade.levelled = false
        let weights = (0..<30).map { _ in fade.nextWeight() }
        #expect(weights.first == 19 / Float(50))
        #expect(weights[19] == 0 && weights.last == 0)
        #expect(fade.isDry)
    }

    @Test("Opened levelled, it is all levelled from the first sample (the decoder fades in itself)")
    func startsLevelled() {
        var fade = LevellingCrossFade(rate: 48000, levelled: true)
        #expect(fade.isWet)
        #expect(fade.nextWeight() == 1)
    }

    /// A 440 Hz tone at −18 dBFS, stereo, 48 kHz, in chunks of 1024 frames.
    static let format = AudioFormat(sampleRate: 48000, channels: 2)
    static func chunk(_ index: Int, frames: Int = 1024) -> [Float] {
        (0..<frames).flatMap { i -> [Float] in
            let t = Double(index * frames + i) / 48000
            let v = Float(0.125 * sin(2 * .pi * 440 * t))
            return [v, v]
        }
    }

    /// Feeds `chunks` chunks, switching levelling as `levelled(index)` says; returns what came
    /// out, as (frames, pts) runs and the samples.
    static func run(chunks: Int, startLevelled: Bool = false, levelled: (Int) -> Bool)
        -> (runs: [(frames: Int, pts: Double)], samples: [Float], filtering: Bool) {
        let stage = LoudnessLevelling(format: format, levelled: startLevelled)
        var runs: [(frames: Int, pts: Double)] = []
        var samples: [Float] = []
        let deliver: LoudnessLevelling.Deliver = { pointer, frames, pts in
            runs.append((frames, pts))
            samples.append(contentsOf: UnsafeBufferPointer(start: pointer, count: frames * 2))
        }
        for index in 0..<chunks {
            var input = chunk(index)
            input.withUnsafeMutableBufferPointer { buffer in
                stage.process(buffer.baseAddress!, frames: 1024, pts: Double(index * 1024) / 48000,
                              levelled: levelled(index), deliver: deliver)
            }
        }
        let filtering = stage.isFiltering
        stage.drain(deliver)
        return (runs, samples, filtering)
    }

    static func continuous(_ runs: [(frames: Int, pts: Double)]) -> Bool {
        var expected = 0.0
        for run in runs {
            if abs(run.pts - expected) > 1e-9 { return false }
            expected += Double(run.frames) / 48000
        }
        return true
    }

    @Test("Off, the sound passes as it is, at once")
    func offPassesThrough() {
        let out = Self.run(chunks: 20) { _ in false }
        #expect(out.samples == (0..<20).flatMap { Self.chunk($0) })
        #expect(out.runs.count == 20)
        #expect(!out.filtering)
    }

    @Test("Switched on and off while playing, every sample of time comes out once, in order; off again, as it was")
    func switchKeepsTime() {
        // On from chunk 20 (0.43 s) to chunk 200 (4.3 s), then off for 3 s: the levelled
        // sound covers 0.43 s to 2.4 s of media time (the switch off meets the filter's
        // output a look-ahead behind the decoder).
        let chunks = 350
        let out = Self.run(chunks: chunks) { (20..<200).contains($0) }
        let input = (0..<chunks).flatMap { Self.chunk($0) }
        #expect(out.samples.count == input.count, "\(out.samples.count / 2) frames out of \(input.count / 2)")
        let continuous = Self.continuous(out.runs)
        #expect(continuous, "the times jump")
        #expect(!out.filtering, "the filter should be gone once the fade back ended")
        // Before the switch and well after it (the look-ahead and the fade past), as it was.
        #expect(Array(out.samples[0..<(20 * 2048)]) == Array(input[0..<(20 * 2048)]))
        let tail = (130 * 2048)..<input.count
        #expect(Array(out.samples[tail]) == Array(input[tail]))
        // In between the tone was raised (towards dynaudnorm's peak of 0.5)...
        let middle = out.samples[(50 * 2048)..<(100 * 2048)].map(abs).max() ?? 0
        #expect(middle > 0.3, "levelled peak \(middle)")
        // ...without a step a 440 Hz tone of that level cannot take.
        let limit = Float(2 * Double.pi * 440 / 48000) * 0.6 * 1.5
        let largest = zip(out.samples.dropFirst(2), out.samples).map { abs($0 - $1) }.max() ?? 0
        #expect(largest < limit, "a step of \(largest) (a tone at 0.6 steps at most \(limit / 1.5))")
    }

    @Test("Levelled from the start, the first sound comes out after the filter's look-ahead, and all of it by the end")
    func lookAhead() {
        let stage = LoudnessLevelling(format: Self.format, levelled: true)
        var fed = 0
        var firstOut: Int?
        var out = 0
        for index in 0..<200 {
            var input = Self.chunk(index)
            input.withUnsafeMutableBufferPointer { buffer in
                stage.process(buffer.baseAddress!, frames: 1024, pts: Double(index * 1024) / 48000, levelled: true) { _, frames, _ in
                    if firstOut == nil { firstOut = fed + 1024 }
                    out += frames
                }
            }
            fed += 1024
        }
        stage.drain { _, frames, _ in out += frames }
        let lag = Double(try! #require(firstOut)) / 48000
        print("levelling's look-ahead: \(lag) s of sound fed before the first came out")
        #expect(lag <= LevellingFilter.latencySeconds + 1024 / 48000 + 0.075, "look-ahead \(lag) s")
        #expect(out == fed)
    }
}
