/// An A-B loop over the item playing (mpv's `ab-loop-a`/`ab-loop-b`): `start` alone is a
/// mark the person set first; with `end` too, playing inside the span goes back to `start`
/// on reaching `end`. Media seconds.
/// Threading: a value type.
public struct LoopSpan: Sendable, Equatable {
    public let start: Double
    public let end: Double?

    /// A span shorter than this (about a frame) is no span: setting the end there clears it.
    public static let shortest = 0.04

    public init(start: Double, end: Double? = nil) {
        self.start = start
        self.end = end
    }

    /// Whether it loops: both ends are set, in order, at least `shortest` apart.
    public var loops: Bool {
        guard let end else { return false }
        return end - start >= Self.shortest
    }

    /// What one press of the A-B key makes of `span` with playback at `position` (mpv's
    /// `ab-loop` command): none → the start here; a start → the span from it to here (in
    /// order whichever side of it here is, none when here is the start); a span → none.
    public static func cycled(_ span: LoopSpan?, at position: Double) -> LoopSpan? {
        guard let span else { return LoopSpan(start: max(0, position)) }
        guard span.end == nil else { return nil }
        let ends = (min(span.start, position), max(span.start, position))
        guard ends.1 - ends.0 >= shortest else { return nil }
        return LoopSpan(start: ends.0, end: ends.1)
    }
}
