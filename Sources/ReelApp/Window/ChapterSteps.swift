import ReelEngine

/// Page Up and Page Down: the previous and the next chapter, as mpv steps them. Forward goes to
/// the next chapter's start; back goes to the start of the chapter playing when more than
/// `restartAfter` seconds of it have played (a person pressing it mid-chapter means "again"),
/// else to the one before. Threading: a value type.
enum ChapterSteps {
    /// mpv's `chapter-seek-threshold`.
    static let restartAfter = 5.0
    /// A chapter is the one playing from a moment before its start: a seek to a start can land
    /// on the frame just before it.
    static let landing = 0.05

    /// The chapter to go to (its index in `chapters` sorted by start, and the chapter), or nil
    /// when there is none that way.
    static func target(_ chapters: [Chapter], position: Double, forward: Bool) -> (index: Int, chapter: Chapter)? {
        let sorted = chapters.sorted { $0.start < $1.start }
        guard !sorted.isEmpty else { return nil }
        if forward {
            guard let next = sorted.firstIndex(where: { $0.start > position + landing }) else { return nil }
            return (next, sorted[next])
        }
        guard let current = sorted.lastIndex(where: { $0.start <= position + landing }) else { return nil }
        if position - sorted[current].start > restartAfter || current == 0 { return (current, sorted[current]) }
        return (current - 1, sorted[current - 1])
    }
}
