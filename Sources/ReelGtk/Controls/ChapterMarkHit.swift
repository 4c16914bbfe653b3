/// Which chapter mark a click on the scrubber hits: the marks are a pixel wide, so a click on
/// one or within `reach` pixels of it means that chapter, and lands exactly on its start rather
/// than on the time under the pointer (a few pixels of a long film are many seconds). Where two
/// marks lie within reach, the nearer wins. Only the starts the scrubber marks count
/// (`ChapterMarkHit.marked`): the first chapter's start and starts at the end get no mark.
/// Threading: pure functions.
public enum ChapterMarkHit {
    /// Pixels either side of a mark that still hit it.
    public static let reach = 5.0
    /// A press that moved no further than this before its release is a click, not a drag.
    public static let clickSlop = 3.0

    /// The starts of `starts` that get a mark on a scrubber of media `duration` long.
    public static func marked(_ starts: [Double], duration: Double) -> [Double] {
        guard duration > 0 else { return [] }
        return starts.filter { $0 > 0.001 && $0 < duration - 0.001 }.sorted()
    }

    /// The chapter start a click at `x` (the scrubber's coordinates) hits, or nil when the click
    /// is further than `reach` from every mark.
    public static func start(atX x: Double, starts: [Double], duration: Double, geometry: ScrubberGeometry) -> Double? {
        let hits = marked(starts, duration: duration).map { (start: $0, distance: abs(geometry.x(atFraction: $0 / duration) - x)) }
            .filter { $0.distance <= reach }
        return hits.min { $0.distance < $1.distance }?.start
    }

    /// Whether a press released `dx`, `dy` pixels from where it began was a click.
    public static func isClick(dx: Double, dy: Double) -> Bool {
        abs(dx) <= clickSlop && abs(dy) <= clickSlop
    }
}
