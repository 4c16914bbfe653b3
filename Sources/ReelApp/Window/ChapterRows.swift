import ReelEngine
import ReelGtk

/// What the chapter list shows: a row per chapter in start order, with its name (the title,
/// or "Chapter N" when it has none) and its start as the time labels write it (hours on every
/// row when the media lasts an hour or more, or always when the preference says so; frames when
/// asked for and the frame rate is known), and which one is playing.
/// Threading: a value type.
struct ChapterRows: Equatable {
    struct Row: Equatable {
        var chapter: Chapter
        /// From 1, in start order.
        var number: Int
        var name: String
        var time: String
    }

    let rows: [Row]

    init(_ chapters: [Chapter], duration: Double?, frameRate: Double? = nil, options: TimeTextOptions = .init()) {
        let sorted = chapters.sorted { $0.start < $1.start }
        rows = sorted.enumerated().map { index, chapter in
            Row(chapter: chapter, number: index + 1, name: ChapterNames.name(chapter, number: index + 1),
                time: TimeText.elapsed(chapter.start, reference: duration, frameRate: frameRate, options: options))
        }
    }

    /// The index of the chapter playing at `position`: the last to start at or before it (a
    /// seek to a start may land a moment before it, as Page Down's do); nil before the first.
    func current(at position: Double) -> Int? {
        rows.lastIndex { $0.chapter.start <= position + ChapterSteps.landing }
    }
}
