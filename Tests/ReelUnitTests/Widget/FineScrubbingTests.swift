import ReelGtk
import Testing

@Suite("Fine scrubbing")
struct FineScrubbingTests {
    /// 1,000 pixels of travel (the thumb's centre from x = 10 to 1,010) for 1,000 seconds:
    /// one second a pixel at full speed.
    let geometry = ScrubberGeometry(troughX: 0, troughWidth: 1_020, sliderLength: 20)
    let duration = 1_000.0

    func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    @Test("Bands of 50 pixels from the scrubber's edge: full, half, quarter, then an eighth")
    func bands() {
        #expect(FineScrubbing.speed(atDistance: 0) == .full)
        #expect(FineScrubbing.speed(atDistance: 49.9) == .full)
        #expect(FineScrubbing.speed(atDistance: 50) == .half)
        #expect(FineScrubbing.speed(atDistance: 99) == .half)
        #expect(FineScrubbing.speed(atDistance: 100) == .quarter)
        #expect(FineScrubbing.speed(atDistance: 150) == .fine)
        #expect(FineScrubbing.speed(atDistance: 5_000) == .fine)
        #expect(FineScrubbing.speed(atDistance: -3) == .full)
        #expect(FineScrubbing.Speed.allCases.map(\.factor) == [1, 0.5, 0.25, 0.125])
    }

    @Test("On the scrubber a drag follows the pointer exactly")
    func fullSpeed() {
        var scrub = FineScrubbing(pressAtX: 110, geometry: geometry, duration: duration)
        #expect(close(scrub.time, 100))
        #expect(close(scrub.move(toX: 410, distance: 10), 400))
        #expect(close(scrub.move(toX: 2_000, distance: 0), 1_000))
        #expect(scrub.followsPointer)
    }

    @Test("Moving away vertically does not move the position; sideways motion then moves it by the band's share")
    func slowed() {
        var scrub = FineScrubbing(pressAtX: 510, geometry: geometry, duration: duration)
        #expect(close(scrub.move(toX: 510, distance: 75), 500))
        #expect(scrub.speed == .half)
        #expect(close(scrub.move(toX: 610, distance: 75), 550))
        #expect(close(scrub.move(toX: 610, distance: 120), 550))
        #expect(close(scrub.move(toX: 650, distance: 120), 560))
        #expect(close(scrub.move(toX: 730, distance: 400), 570))
        #expect(scrub.speed == .fine)
        #expect(close(scrub.move(toX: 650, distance: 400), 560))
        #expect(!scrub.followsPointer)
    }

    @Test("Back at full speed the thumb keeps its distance until the pointer passes over it")
    func catchesUp() {
        var scrub = FineScrubbing(pressAtX: 510, geometry: geometry, duration: duration)
        scrub.move(toX: 710, distance: 200)          // an eighth: 500 + 25
        #expect(close(scrub.time, 525))
        // Back on the scrubber: no jump to the pointer's 700 s.
        #expect(close(scrub.move(toX: 710, distance: 0), 525))
        #expect(close(scrub.move(toX: 760, distance: 0), 575))
        #expect(!scrub.followsPointer)
        // Leftwards past the thumb's x (535): from there it is under the pointer again.
        #expect(close(scrub.move(toX: 500, distance: 0), 490))
        #expect(scrub.followsPointer)
        #expect(close(scrub.move(toX: 300, distance: 0), 290))
    }

    @Test("Slowed drags stop at the ends, and the pointer coming back across the thumb takes it along")
    func ends() {
        var scrub = FineScrubbing(pressAtX: 960, geometry: geometry, duration: duration)
        scrub.move(toX: 960, distance: 60)
        #expect(close(scrub.move(toX: 1_200, distance: 60), 1_000))
        // At full speed, the pointer (past the end) meets the stopped thumb at once.
        #expect(close(scrub.move(toX: 1_150, distance: 0), 1_000))
        #expect(scrub.followsPointer)
        #expect(close(scrub.move(toX: 910, distance: 0), 900))
    }

    @Test("Nothing to scrub: the position stays 0")
    func empty() {
        var scrub = FineScrubbing(pressAtX: 300, geometry: geometry, duration: 0)
        #expect(scrub.move(toX: 800, distance: 300) == 0)
    }
}
