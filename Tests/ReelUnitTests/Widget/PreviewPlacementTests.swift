@testable import ReelEngine
@testable import ReelGtk
import Testing

/// The hover card's pure parts: where it goes along the view, and which chapter title it shows.
@Suite("Preview placement and chapter titles")
struct PreviewPlacementTests {
    @Test("The card centres on the pointer and stays inside the view")
    func placement() {
        #expect(ScrubberPreview.left(anchor: 320, cardWidth: 100, viewWidth: 640) == 270)
        #expect(ScrubberPreview.left(anchor: 10, cardWidth: 100, viewWidth: 640) == 6)
        #expect(ScrubberPreview.left(anchor: 635, cardWidth: 100, viewWidth: 640) == 534)
        #expect(ScrubberPreview.left(anchor: 50, cardWidth: 100, viewWidth: 80) == 6)
    }

    @Test("The title is the chapter's that started and has not ended; untitled or between chapters, none")
    func titles() {
        let chapters = [Chapter(start: 0, end: 2, title: "Opening"), Chapter(start: 2, end: 6, title: "Main part"),
                        Chapter(start: 8, end: 9, title: "  "), Chapter(start: 9, end: 0, title: "Credits")]
        #expect(ChapterMarks.title(in: chapters, at: 0) == "Opening")
        #expect(ChapterMarks.title(in: chapters, at: 1.99) == "Opening")
        #expect(ChapterMarks.title(in: chapters, at: 2) == "Main part")
        #expect(ChapterMarks.title(in: chapters, at: 7) == nil)
        #expect(ChapterMarks.title(in: chapters, at: 8.5) == nil)
        #expect(ChapterMarks.title(in: chapters, at: 100) == "Credits")
        #expect(ChapterMarks.title(in: [], at: 1) == nil)
    }
}
