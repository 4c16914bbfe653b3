@testable import ReelApp
@testable import ReelEngine
import Testing

/// The remote's and the media keys' previous and next: chapters with one chaptered item, the
/// queue otherwise; whether they can go a way follows from that.
/// Threading: stateless, runs anywhere.
@Suite("Remote steps: chapters or the queue")
struct RemoteStepsTests {
    static let chapters = [Chapter(start: 0, end: 2, title: "Opening"), Chapter(start: 2, end: 6, title: "Main part")]

    @Test("One item with chapters steps chapters; several items, or none with chapters, step the queue")
    func which() {
        #expect(RemoteSteps.stepsChapters(queueItems: 1, chapters: 2))
        #expect(!RemoteSteps.stepsChapters(queueItems: 2, chapters: 2))
        #expect(!RemoteSteps.stepsChapters(queueItems: 1, chapters: 0))
    }

    @Test("Next can go while a chapter lies ahead (or the queue can); with several items only the queue counts")
    func canGo() {
        #expect(RemoteSteps.canGo(forward: true, queueItems: 1, chapters: Self.chapters, position: 0, queueCanGo: false))
        #expect(!RemoteSteps.canGo(forward: true, queueItems: 1, chapters: Self.chapters, position: 2, queueCanGo: false))
        #expect(RemoteSteps.canGo(forward: true, queueItems: 1, chapters: Self.chapters, position: 2, queueCanGo: true))
        #expect(RemoteSteps.canGo(forward: false, queueItems: 1, chapters: Self.chapters, position: 3, queueCanGo: false))
        #expect(!RemoteSteps.canGo(forward: true, queueItems: 2, chapters: Self.chapters, position: 0, queueCanGo: false))
        #expect(!RemoteSteps.canGo(forward: true, queueItems: 1, chapters: [], position: 0, queueCanGo: false))
    }
}
