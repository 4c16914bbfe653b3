import ReelGtk
import Testing

@Suite("Scrubber geometry")
struct ScrubberGeometryTests {
    let geometry = ScrubberGeometry(troughX: 10, troughWidth: 220, sliderLength: 20)

    @Test("A click anywhere maps to the time under it, the slider's centre travelling the trough")
    func clicks() {
        #expect(geometry.time(atX: 20, duration: 100) == 0)
        #expect(geometry.time(atX: 220, duration: 100) == 100)
        #expect(geometry.time(atX: 120, duration: 100) == 50)
        #expect(abs(geometry.time(atX: 70, duration: 100) - 25) < 1e-9)
    }

    @Test("Outside the trough clamps to the ends")
    func clamps() {
        #expect(geometry.time(atX: -50, duration: 100) == 0)
        #expect(geometry.time(atX: 999, duration: 100) == 100)
        #expect(geometry.time(atX: 120, duration: 0) == 0)
    }
}
