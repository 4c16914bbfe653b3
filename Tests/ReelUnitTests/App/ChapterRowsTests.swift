@testable import ReelApp
@testable import ReelEngine
import ReelGtk
import Testing

/// The chapter list's rows without a window: names (a title, or "Chapter N" in start order
/// when it has none or a blank one), start times as the time labels write them (hours on every
/// row of a film of an hour or more), and which row is the chapter playing.
/// Threading: stateless, runs anywhere.
@Suite("Chapter list rows")
struct ChapterRowsTests {
    static let film = [Chapter(start: 3725, end: 7200, title: "Finale"), Chapter(start: 0, end: 600, title: "Opening"),
                       Chapter(start: 600, end: 3725, title: nil), Chapter(start: 3600, end: 3725, title: "  ")]

    @Test("Rows in start order; untitled and blank-titled chapters are named by their number")
    func names() {
        let rows = ChapterRows(Self.film, duration: 7200).rows
        #expect(rows.map(\.name) == ["Opening", "Chapter 2", "Chapter 3", "Finale"])
        #expect(rows.map(\.number) == [1, 2, 3, 4])
        #expect(rows.map(\.chapter.start) == [0, 600, 3600, 3725])
    }

    @Test("Times take hours on every row of a film of an hour or more, and not on a short one")
    func times() {
        #expect(ChapterRows(Self.film, duration: 7200).rows.map(\.time) == ["0:00:00", "0:10:00", "1:00:00", "1:02:05"])
        let short = [Chapter(start: 0, end: 2, title: "A"), Chapter(start: 2.5, end: 6, title: "B")]
        #expect(ChapterRows(short, duration: 6).rows.map(\.time) == ["0:00", "0:02"])
        #expect(ChapterRows(short, duration: 6, options: TimeTextOptions(alwaysShowHours: true)).rows.map(\.time) == ["0:00:00", "0:00:02"])
    }

    @Test("The row playing: the last to start at or before the position, also just before a start a seek landed near")
    func current() {
        let rows = ChapterRows(Self.film, duration: 7200)
        #expect(rows.current(at: 0) == 0)
        #expect(rows.current(at: 599.98) == 1)
        #expect(rows.current(at: 3700) == 2)
        #expect(rows.current(at: 7000) == 3)
        let late = ChapterRows([Chapter(start: 10, end: 20, title: "Late")], duration: 20)
        #expect(late.current(at: 5) == nil)
    }

    @Test("What the billboard says on going to a chapter")
    func announcement() {
        #expect(ChapterNames.announcement(Chapter(start: 2, end: 6, title: "Main part"), number: 2) == "Chapter 2: Main part")
        #expect(ChapterNames.announcement(Chapter(start: 2, end: 6, title: nil), number: 3) == "Chapter 3")
    }
}
