/// When an A-B loop goes back to its start: playing from inside the span (seen there since it
/// last entered it) and reaching its end. Playback that lands outside it, a seek past the end
/// or before the start, plays on; coming into it again loops again (mpv's ab-loop does the
/// same). Paused, stepping, scrubbing or landing, nothing is due: the caller only asks while
/// playing with no landing under way, and a seek disarms it.
/// Threading: a value used on the control thread (and by the unit tests).
struct LoopWatch {
    /// What a look at the position found.
    enum Verdict: Equatable {
        /// No span that loops, or not playing: nothing to watch.
        case idle
        /// Before the span: it starts looping once the position reaches `start`.
        case before(start: Double)
        /// Inside: back to the start on reaching `end`.
        case inside(end: Double)
        /// Reached the end from inside: back to `start` now.
        case jump(to: Double)
        /// Beyond the end without having played inside (sought past it): plays on.
        case past
    }

    private(set) var span: LoopSpan?
    /// Seen inside the span since it last came in (and no seek since).
    private(set) var armed = false

    /// A position this close before the start counts as at it (a landing's clock may read a
    /// hair early).
    static let tolerance = 0.001

    /// How far past its end playback may already be when a span is set and still count as
    /// inside: the end is set where playback is (the A-B key's second press), and the player
    /// hears of it a moment later. Then it goes back at once, as mpv does.
    static let settingLag = 0.5

    /// A new span, set with playback at `position` (nil: not known, as when the item changes).
    mutating func set(_ span: LoopSpan?, at position: Double? = nil) {
        self.span = span
        armed = false
        if let span, span.loops, let end = span.end, let position {
            armed = position >= span.start - Self.tolerance && position < end + Self.settingLag
        }
    }

    /// A seek, a step or a drag moved the position: where it lands decides anew.
    mutating func disarm() { armed = false }

    /// Playback is at `position`; `playing` is false while paused, stepping, scrubbing or
    /// landing.
    mutating func look(at position: Double, playing: Bool) -> Verdict {
        guard let span, span.loops, let end = span.end, playing else {
            armed = false
            return .idle
        }
        if position >= span.start - Self.tolerance && position < end {
            armed = true
            return .inside(end: end)
        }
        if position >= end && armed {
            armed = false
            return .jump(to: span.start)
        }
        armed = false
        return position < span.start ? .before(start: span.start) : .past
    }
}
