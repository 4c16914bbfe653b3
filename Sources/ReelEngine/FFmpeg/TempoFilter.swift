import CFFmpeg

/// Changes the tempo of device-format PCM without changing its pitch: libavfilter's `atempo`
/// (WSOLA), chained when the factor is outside one instance's comfortable range, so 0.25× is
/// two 0.5× stages rather than one stage stretching each window fourfold.
/// Threading: used only by the audio decoder thread.
final class TempoFilter {
    let speed: Double
    private let graph: PCMFilterGraph
    /// Output of the last `process`/`drain`, interleaved float.
    var buffer: [Float] { graph.buffer }

    init(format: AudioFormat, speed: Double) throws(PlayerError) {
        self.speed = speed
        graph = try PCMFilterGraph(format: format, stages: Self.stages(for: speed).map { ("atempo", "tempo=\($0)") },
                                   name: "tempo filter for \(speed)×")
    }

    /// Factors of at most 2 and at least 0.5 whose product is `speed`: each atempo stage
    /// then overlaps windows the way it was tuned for.
    static func stages(for speed: Double) -> [Double] {
        var left = speed
        var factors: [Double] = []
        while left > 2.0001 { factors.append(2); left /= 2 }
        while left < 0.4999 { factors.append(0.5); left /= 0.5 }
        factors.append(left)
        return factors
    }

    /// Feeds `frames` frames; `buffer` then holds whatever the filter let out (maybe nothing).
    func process(_ samples: UnsafePointer<Float>, frames: Int) throws(PlayerError) {
        try graph.process(samples, frames: frames)
    }

    /// Ends the input: `buffer` holds the filter's last samples.
    func drain() { graph.drain() }
}
