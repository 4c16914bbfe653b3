@testable import ReelApp
import Testing

/// The scroll wheel over the picture as key steps, without a window: a notch is a step, a
/// touchpad's pixels add up to steps, Shift and sideways seek.
/// Threading: any; no window.
@Suite("The scroll wheel over the picture")
struct ScrollStepsTests {
    @Test("Each notch of the wheel is one volume step: up louder, down quieter")
    func wheelNotches() {
        var steps = ScrollSteps()
        #expect(steps.scrolled(dx: 0, dy: -1, unit: .wheel, shift: false) == .volume(1))
        #expect(steps.scrolled(dx: 0, dy: 1, unit: .wheel, shift: false) == .volume(-1))
        #expect(steps.scrolled(dx: 0, dy: 3, unit: .wheel, shift: false) == .volume(-3))
    }

    @Test("Sideways, or up and down with Shift, seeks: right and down later, left and up earlier")
    func seeking() {
        var steps = ScrollSteps()
        #expect(steps.scrolled(dx: 1, dy: 0, unit: .wheel, shift: false) == .seek(1))
        #expect(steps.scrolled(dx: -1, dy: 0, unit: .wheel, shift: false) == .seek(-1))
        #expect(steps.scrolled(dx: 0, dy: 1, unit: .wheel, shift: true) == .seek(1))
        #expect(steps.scrolled(dx: 0, dy: -2, unit: .wheel, shift: true) == .seek(-2))
    }

    @Test("A touchpad's pixels add up to a step; the rest waits, and a turn starts over")
    func touchpad() {
        var steps = ScrollSteps()
        let part = ScrollSteps.pixelsPerStep / 3
        #expect(steps.scrolled(dx: 0, dy: -part, unit: .pixels, shift: false) == nil)
        #expect(steps.scrolled(dx: 0, dy: -part, unit: .pixels, shift: false) == nil)
        #expect(steps.scrolled(dx: 0, dy: -part * 1.5, unit: .pixels, shift: false) == .volume(1))
        // A sixth of a step up is left over; turning down starts from nothing.
        #expect(steps.scrolled(dx: 0, dy: part * 2, unit: .pixels, shift: false) == nil)
        #expect(steps.scrolled(dx: 0, dy: part * 1.2, unit: .pixels, shift: false) == .volume(-1))
        // The larger direction decides: a slightly slanted glide to the right seeks.
        #expect(steps.scrolled(dx: ScrollSteps.pixelsPerStep, dy: 2, unit: .pixels, shift: false) == .seek(1))
    }

    @Test("With Ctrl, up and down zoom in and out, and sideways does nothing else")
    func zoom() {
        var steps = ScrollSteps()
        #expect(steps.scrolled(dx: 0, dy: -1, unit: .wheel, shift: false, control: true) == .zoom(1))
        #expect(steps.scrolled(dx: 0, dy: 2, unit: .wheel, shift: false, control: true) == .zoom(-2))
        #expect(steps.scrolled(dx: 0, dy: -ScrollSteps.pixelsPerStep / 2, unit: .pixels, shift: false, control: true) == nil)
        #expect(steps.scrolled(dx: 0, dy: -ScrollSteps.pixelsPerStep / 2, unit: .pixels, shift: false, control: true) == .zoom(1))
        #expect(steps.scrolled(dx: 0, dy: -1, unit: .wheel, shift: false) == .volume(1), "without Ctrl the wheel is the volume again")
    }
}
