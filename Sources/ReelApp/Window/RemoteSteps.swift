import ReelEngine

/// What the remote's and the media keys' previous and next do: with one item in the queue and
/// chapters in it they step through its chapters (as people expect of a film or an audiobook,
/// and as Page Up and Page Down do); with several items they move through the queue. They can
/// go a way when a chapter lies that way, or else when the queue can.
/// Threading: pure functions.
enum RemoteSteps {
    /// Whether previous and next step chapters rather than items.
    static func stepsChapters(queueItems: Int, chapters: Int) -> Bool {
        queueItems <= 1 && chapters > 0
    }

    /// Whether the remote can go `forward` (or back): a chapter that way, when it steps
    /// chapters; else (or also, at the last chapter) what the queue says.
    static func canGo(forward: Bool, queueItems: Int, chapters: [Chapter], position: Double, queueCanGo: Bool) -> Bool {
        guard stepsChapters(queueItems: queueItems, chapters: chapters.count) else { return queueCanGo }
        return ChapterSteps.target(chapters, position: position, forward: forward) != nil || queueCanGo
    }
}
