@testable import ReelGtk
import ReelEngine
import Testing

/// The scrubber's cached stretches: each where it lies on the trough, gaps left open.
@Suite("Buffered ranges")
struct BufferedRangesTests {
    @Test("Every cached stretch becomes a bar at its place; a seek far ahead leaves the skipped part open")
    func bars() {
        let progress = DownloadProgress(bytes: 600, expected: 1000, ranges: [0..<300, 500..<800])
        // A 220 px trough from x = 10 with a 20 px slider: its centre travels 20...220.
        let geometry = ScrubberGeometry(troughX: 10, troughWidth: 220, sliderLength: 20)
        let bars = BufferedRanges.bars(progress.fractions, on: geometry)
        #expect(bars.count == 2)
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }
        #expect(near(bars[0].x, 20) && near(bars[0].width, 60), "\(bars)")
        #expect(near(bars[1].x, 120) && near(bars[1].width, 60), "\(bars)")
        // The bars start where a click would seek to their start.
        #expect(near(geometry.time(atX: bars[1].x, duration: 100), 50))
        // A few bytes still show as a pixel; nothing known, nothing drawn.
        let tiny = DownloadProgress(bytes: 1, expected: 1_000_000, ranges: [800_000..<800_001])
        #expect(BufferedRanges.bars(tiny.fractions, on: geometry).map(\.width) == [1])
        #expect(BufferedRanges.bars(DownloadProgress(bytes: 5, expected: nil, ranges: [0..<5]).fractions, on: geometry).isEmpty)
    }
}
