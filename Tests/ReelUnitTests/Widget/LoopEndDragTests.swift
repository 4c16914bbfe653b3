@testable import ReelEngine
@testable import ReelGtk
import Testing

/// Which end of the A-B loop a press on the scrubber takes, and where a drag moves it.
@Suite("Loop ends dragged")
struct LoopEndDragTests {
    // 200 pixels of travel for 100 s: 2 pixels a second, from x 20.
    let geometry = ScrubberGeometry(troughX: 10, troughWidth: 220, sliderLength: 20)
    let span = LoopSpan(start: 20, end: 60)

    @Test("A press within a few pixels of an end takes it; elsewhere the scrubber has it")
    func pressTakesTheNearEnd() {
        #expect(LoopEndDrag.end(atX: 60, span: span, duration: 100, on: geometry) == .start)
        #expect(LoopEndDrag.end(atX: 145, span: span, duration: 100, on: geometry) == .end)
        #expect(LoopEndDrag.end(atX: 100, span: span, duration: 100, on: geometry) == nil)
        #expect(LoopEndDrag.end(atX: 67, span: span, duration: 100, on: geometry) == nil)
        // A start alone is taken as the start.
        #expect(LoopEndDrag.end(atX: 58, span: LoopSpan(start: 20), duration: 100, on: geometry) == .start)
        // Ends a pixel apart: the nearer.
        let close = LoopSpan(start: 20, end: 21)
        #expect(LoopEndDrag.end(atX: 63, span: close, duration: 100, on: geometry) == .end)
    }

    @Test("A drag moves the end it took, never past the other one")
    func dragMovesOneEnd() {
        #expect(LoopEndDrag.moving(.end, of: span, to: 80) == LoopSpan(start: 20, end: 80))
        #expect(LoopEndDrag.moving(.start, of: span, to: 10) == LoopSpan(start: 10, end: 60))
        #expect(LoopEndDrag.moving(.start, of: span, to: 70) == LoopSpan(start: 60 - LoopSpan.shortest, end: 60))
        #expect(LoopEndDrag.moving(.end, of: span, to: 5) == LoopSpan(start: 20, end: 20 + LoopSpan.shortest))
        #expect(LoopEndDrag.moving(.start, of: LoopSpan(start: 20), to: 30) == LoopSpan(start: 30))
    }
}
