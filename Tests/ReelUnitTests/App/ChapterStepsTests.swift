@testable import ReelApp
@testable import ReelEngine
import Testing

/// Page Up and Page Down's choice of chapter, without a window: forward to the next start; back
/// to the start of the one playing once 5 s of it have played, else to the one before.
/// Threading: stateless, runs anywhere.
@Suite("Chapter steps")
struct ChapterStepsTests {
    static let chapters = [Chapter(start: 600, end: 1200, title: "Three"), Chapter(start: 0, end: 300, title: "One"),
                           Chapter(start: 300, end: 600, title: "Two")]

    static func step(_ position: Double, forward: Bool) -> Double? {
        ChapterSteps.target(chapters, position: position, forward: forward)?.chapter.start
    }

    @Test("Forward: the next start, also from just before a start a seek landed near; none after the last")
    func forward() {
        #expect(Self.step(0, forward: true) == 300)
        #expect(Self.step(299.98, forward: true) == 600)
        #expect(Self.step(450, forward: true) == 600)
        #expect(Self.step(700, forward: true) == nil)
        #expect(ChapterSteps.target(Self.chapters, position: 10, forward: true)?.index == 1)
    }

    @Test("Back: the same chapter's start after 5 s of it, else the one before; the first stays the first")
    func back() {
        #expect(Self.step(304, forward: false) == 0)
        #expect(Self.step(306, forward: false) == 300)
        #expect(Self.step(300, forward: false) == 0)
        #expect(Self.step(599.98, forward: false) == 300)
        #expect(Self.step(2, forward: false) == 0)
        #expect(ChapterSteps.target([], position: 10, forward: false) == nil)
    }
}
