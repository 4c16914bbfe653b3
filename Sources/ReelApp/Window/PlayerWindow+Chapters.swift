import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The window's chapters: Page Up and Page Down, the chapter list, and the remote's and the
/// media keys' previous and next, which step chapters with one chaptered item in the queue
/// (`RemoteSteps`). Each goes exactly to a chapter's start and names it on the billboard.
/// Threading: main thread only.
extension PlayerWindow {
    private var chapters: [Chapter] { playerView.model.mediaInfo?.chapters ?? [] }

    /// Page Up and Page Down: the previous or next chapter's start (`ChapterSteps`).
    func stepChapter(forward: Bool) {
        let model = playerView.model
        guard model.hasMedia, let target = ChapterSteps.target(chapters, position: model.position, forward: forward) else {
            if forward, !chapters.isEmpty { playerView.billboard.show(tr("This is the last chapter")) }
            return
        }
        goToChapter(target.chapter, number: target.index + 1)
    }

    /// Goes exactly to `chapter`'s start (`number` from 1 in start order) and names it.
    func goToChapter(_ chapter: Chapter, number: Int) {
        guard playerView.model.hasMedia else { return }
        playerView.seek(to: chapter.start, mode: .exact)
        playerView.billboard.show(ChapterNames.announcement(chapter, number: number))
    }

    /// The chapter list (Chapters… in the menus), over the controls.
    func showChapters() {
        let model = playerView.model
        guard model.hasMedia, !chapters.isEmpty else { return }
        let list = chapterList ?? makeChapterList()
        playerView.revealControls()
        list.open(chapterRows(), position: model.position, pointingTo: playerView.aboveControls)
    }

    private func makeChapterList() -> ChapterList {
        let list = ChapterList()
        playerView.addPopover(list.popover)
        list.chosen = { [weak self] row in self?.goToChapter(row.chapter, number: row.number) }
        chapterList = list
        return list
    }

    private func chapterRows() -> ChapterRows {
        let model = playerView.model
        return ChapterRows(chapters, duration: model.duration, frameRate: model.frameRate, options: playerView.settings.timeOptions)
    }

    /// Keeps the open list on the chapter playing (and its rows on what is open), and the
    /// remote's CanGoNext and CanGoPrevious on whether a chapter lies that way.
    func followChapters(_ change: PlayerModel.Change) {
        guard change.contains([.timeline, .media, .duration, .state]) else { return }
        if let chapterList, chapterList.isOpen {
            if chapters.isEmpty || !playerView.model.hasMedia {
                gtk_popover_popdown(chapterList.popover.cast())
            } else {
                chapterList.show(chapterRows(), position: playerView.model.position)
            }
        }
        let canGo = [remoteCanGoNext, remoteCanGoPrevious]
        if canGo != announcedRemoteSteps {
            announcedRemoteSteps = canGo
            mpris?.refresh()
        }
    }

    // MARK: The remote's and the media keys' previous and next

    private var remoteStepsChapters: Bool {
        RemoteSteps.stepsChapters(queueItems: queue.queue.items.count, chapters: playerView.model.hasMedia ? chapters.count : 0)
    }

    var remoteCanGoNext: Bool {
        RemoteSteps.canGo(forward: true, queueItems: queue.queue.items.count, chapters: playerView.model.hasMedia ? chapters : [],
                          position: playerView.model.position, queueCanGo: queue.canGoNext)
    }

    var remoteCanGoPrevious: Bool {
        RemoteSteps.canGo(forward: false, queueItems: queue.queue.items.count, chapters: playerView.model.hasMedia ? chapters : [],
                          position: playerView.model.position, queueCanGo: queue.canGoPrevious)
    }

    /// Next: the next chapter with one chaptered item (at the last, what the queue does next,
    /// or the billboard saying it is the last); else the next item.
    func remoteNext() {
        guard remoteStepsChapters,
              ChapterSteps.target(chapters, position: playerView.model.position, forward: true) != nil || !queue.canGoNext
        else { return queue.next() }
        stepChapter(forward: true)
    }

    /// Previous: the chapter before (or this one's start) with one chaptered item; else the
    /// queue's previous.
    func remotePrevious() {
        guard remoteStepsChapters else { return queue.previous() }
        stepChapter(forward: false)
    }
}
