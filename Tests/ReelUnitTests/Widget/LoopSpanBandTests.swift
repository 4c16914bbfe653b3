@testable import ReelGtk
import Testing

/// Where the A-B loop's band lies on the scrubber: from the start's slider position to the
/// end's, and a start alone as a mark centred on it.
@Suite("Loop span band")
struct LoopSpanBandTests {
    let geometry = ScrubberGeometry(troughX: 10, troughWidth: 220, sliderLength: 20)

    @Test("A span from where the slider stands for its start to where it stands for its end")
    func span() {
        let band = LoopSpanBand.band(start: 0.25, end: 0.75, on: geometry)
        #expect(band.x == geometry.x(atFraction: 0.25))
        #expect(band.width == geometry.x(atFraction: 0.75) - geometry.x(atFraction: 0.25))
    }

    @Test("A start alone is a mark centred on it")
    func mark() {
        let mark = LoopSpanBand.band(start: 0.5, end: nil, on: geometry)
        #expect(mark.x + mark.width / 2 == geometry.x(atFraction: 0.5))
        #expect(mark.width == LoopSpanBand.markWidth)
    }
}
