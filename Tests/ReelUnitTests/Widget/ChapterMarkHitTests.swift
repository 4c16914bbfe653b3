import ReelGtk
import Testing

/// Which chapter mark a click on the scrubber hits, from the scrubber's laid-out geometry: a
/// 200-pixel travel (x 20 to 220) over 100 s puts a mark every second two pixels apart.
/// Threading: stateless, runs anywhere.
@Suite("Chapter marks: which one a click hits")
struct ChapterMarkHitTests {
    let geometry = ScrubberGeometry(troughX: 10, troughWidth: 220, sliderLength: 20)

    func hit(_ x: Double, _ starts: [Double], duration: Double = 100) -> Double? {
        ChapterMarkHit.start(atX: x, starts: starts, duration: duration, geometry: geometry)
    }

    @Test("A click on a mark or within 5 pixels of it is that chapter's start; further is nothing")
    func reach() {
        // The mark of 25 s stands at x = 20 + 0.25 × 200 = 70.
        #expect(hit(70, [0, 25, 60]) == 25)
        #expect(hit(65, [0, 25, 60]) == 25)
        #expect(hit(75, [0, 25, 60]) == 25)
        #expect(hit(75.5, [0, 25, 60]) == nil)
        #expect(hit(64.4, [0, 25, 60]) == nil)
        #expect(hit(120, [0, 25, 60]) == nil)
    }

    @Test("Between two marks within reach the nearer wins, whatever their order")
    func nearer() {
        // 25 s at x 70, 28 s at x 76: x 72 is nearer 25, x 74 nearer 28.
        #expect(hit(72, [28, 25]) == 25)
        #expect(hit(74, [28, 25]) == 28)
    }

    @Test("Unmarked starts (the first chapter's at 0, one at the end) and media of no length hit nothing")
    func unmarked() {
        #expect(hit(20, [0, 50]) == nil)
        #expect(hit(220, [0, 100]) == nil)
        #expect(hit(120, [50], duration: 0) == nil)
        #expect(ChapterMarkHit.marked([100, 0, 30, 50], duration: 100) == [30, 50])
    }

    @Test("A press let go within 3 pixels of where it began is a click; further is a drag")
    func clicks() {
        #expect(ChapterMarkHit.isClick(dx: 0, dy: 0))
        #expect(ChapterMarkHit.isClick(dx: -3, dy: 2))
        #expect(!ChapterMarkHit.isClick(dx: 4, dy: 0))
        #expect(!ChapterMarkHit.isClick(dx: 0, dy: -3.5))
    }
}
