@testable import ReelEngine
import Testing

/// The A-B loop's two policies without a player: what the A-B key makes of the span
/// (`LoopSpan.cycled`), and when playback goes back to the start (`LoopWatch`).
@Suite("A-B loop policy")
struct ABLoopPolicyTests {
    @Test("The key sets the start, then the end, then clears")
    func keyCycle() {
        let a = LoopSpan.cycled(nil, at: 83)
        #expect(a == LoopSpan(start: 83))
        #expect(a?.loops == false)
        let ab = LoopSpan.cycled(a, at: 91)
        #expect(ab == LoopSpan(start: 83, end: 91))
        #expect(ab?.loops == true)
        #expect(LoopSpan.cycled(ab, at: 95) == nil)
    }

    @Test("An end before the start makes the span in order; one at the start clears; a start never lies before zero")
    func keyCycleEdges() {
        #expect(LoopSpan.cycled(LoopSpan(start: 10), at: 4) == LoopSpan(start: 4, end: 10))
        #expect(LoopSpan.cycled(LoopSpan(start: 10), at: 10.01) == nil)
        #expect(LoopSpan.cycled(nil, at: -0.02) == LoopSpan(start: 0))
    }

    @Test("Inside the span it waits for the end, and goes back on reaching it")
    func jumpsAtEnd() {
        var watch = LoopWatch()
        watch.set(LoopSpan(start: 2, end: 5))
        #expect(watch.look(at: 1, playing: true) == .before(start: 2))
        #expect(watch.look(at: 2, playing: true) == .inside(end: 5))
        #expect(watch.look(at: 4.99, playing: true) == .inside(end: 5))
        #expect(watch.look(at: 5, playing: true) == .jump(to: 2))
        // After the jump it is not armed until it is seen inside again.
        #expect(watch.look(at: 5.2, playing: true) == .past)
    }

    @Test("An end set where playback is (the key's second press, heard a moment later) goes back at once")
    func endSetHere() {
        var watch = LoopWatch()
        watch.set(LoopSpan(start: 2, end: 5), at: 5.1)
        #expect(watch.look(at: 5.15, playing: true) == .jump(to: 2))
        // Set well past its end, or before its start, it waits to be entered.
        watch.set(LoopSpan(start: 2, end: 5), at: 6)
        #expect(watch.look(at: 6.05, playing: true) == .past)
        watch.set(LoopSpan(start: 2, end: 5), at: 1)
        #expect(watch.look(at: 1.05, playing: true) == .before(start: 2))
    }

    @Test("Sought past the end it plays on; coming back into the span loops again")
    func seekPastEnd() {
        var watch = LoopWatch()
        watch.set(LoopSpan(start: 2, end: 5))
        #expect(watch.look(at: 3, playing: true) == .inside(end: 5))
        watch.disarm()   // the seek
        #expect(watch.look(at: 7, playing: true) == .past)
        watch.disarm()
        #expect(watch.look(at: 2.5, playing: true) == .inside(end: 5))
        #expect(watch.look(at: 5.01, playing: true) == .jump(to: 2))
    }

    @Test("Paused, stepping or scrubbing, a start alone, or no span: nothing is due")
    func idle() {
        var watch = LoopWatch()
        #expect(watch.look(at: 3, playing: true) == .idle)
        watch.set(LoopSpan(start: 2))
        #expect(watch.look(at: 3, playing: true) == .idle)
        watch.set(LoopSpan(start: 2, end: 5))
        #expect(watch.look(at: 3, playing: true) == .inside(end: 5))
        #expect(watch.look(at: 5.5, playing: false) == .idle)
        // Not playing disarms: a step past the end and play again does not go back.
        #expect(watch.look(at: 5.5, playing: true) == .past)
    }
}
