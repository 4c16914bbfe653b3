import CFFmpeg

/// Evens out loudness in device-format PCM: libavfilter's `dynaudnorm` (the Dynamic Audio
/// Normalizer). Its gain for each 75 ms frame is the smallest any frame within 25 frames
/// (1.9 s) needs, smoothed over the same window, so it moves too slowly to pump on syllables or
/// breathe in short pauses; it waits for the whole window, so the output trails the input by
/// `latencySeconds`. The alternative boundary mode gives the first frames after a seek their
/// own gain rather than a swell from none. The peak target of 0.5 (−6 dBFS) leaves room for
/// inter-sample peaks, so no limiter is needed to stay under −1 dBTP. `loudnorm`'s one-pass
/// mode was measured and not taken: it works at 192 kHz (50× the processor time), holds 3 s
/// back, came within 0.1 dB of −1 dBTP and moved the gain on speech by 3 dB around the bangs,
/// where dynaudnorm moved it by 0.3 dB (BENCHMARKS.md). The output has exactly as many samples
/// as the input (the drain may add padding, which the caller cuts).
/// Threading: used only by the audio decoder thread.
final class LevellingFilter {
    /// Frame length (ms), window (frames), peak, maximum gain (+20 dB), alternative boundary.
    static let settings = "f=75:g=25:p=0.5:m=10:b=1"
    /// How far the output trails the input: libavfilter's dynaudnorm lets a frame out once the
    /// whole window is queued behind it (measured: LevellingCrossFadeTests).
    static let latencySeconds = 0.075 * 25

    private let graph: PCMFilterGraph
    /// Output of the last `process`/`drain`, interleaved float.
    var buffer: [Float] { graph.buffer }

    init(format: AudioFormat) throws(PlayerError) {
        // dynaudnorm works on planar doubles: the graph converts in, and `aformat` back out.
        graph = try PCMFilterGraph(format: format, stages: [("dynaudnorm", Self.settings), ("aformat", "sample_fmts=flt")],
                                   name: "loudness levelling filter")
    }

    /// Feeds `frames` frames; `buffer` then holds whatever the filter let out (maybe nothing).
    func process(_ samples: UnsafePointer<Float>, frames: Int) throws(PlayerError) {
        try graph.process(samples, frames: frames)
    }

    /// Ends the input: `buffer` holds the filter's last samples.
    func drain() { graph.drain() }
}
