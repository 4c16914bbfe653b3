import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// Plays the queue: opens its current item, moves on at the end of each (loop, shuffle, stop
/// after current), skips items that cannot be played with a notice, answers next/previous
/// from keys, the queue panel and MPRIS, and keeps the queue for the next start.
/// Threading: main thread only.
@MainActor
final class QueueController: MediaPlayerHost {
    let player: SessionPlayer
    /// What the player is doing (its model: the player's own state is never read here).
    private let model: PlayerModel
    private(set) var queue = PlayQueue()
    /// Counts the times the whole queue was replaced (opening, restoring), so that a listener
    /// tells a new queue from edits of the old one.
    private(set) var replacements = 0
    private let store: QueueStore
    private let settings: SessionSettings
    /// Opens one item in the window (`start`: a position to begin at; `play`: start playing).
    private let openItem: @MainActor (_ source: MediaSource, _ start: Double?, _ play: Bool) -> Void
    /// Shows a short message over the picture.
    var notify: (@MainActor (String) -> Void)?
    var raiseWindow: (@MainActor () -> Void)?
    /// Tells the player what follows the current item by itself (nil: nothing), so that it is
    /// prepared ahead and follows without a gap.
    var prepareNext: (@MainActor (MediaSource?) -> Void)?
    var quitApplication: (@MainActor () -> Void)?
    /// Called after every change of the queue or of what is current.
    private var observers: [@MainActor () -> Void] = []
    /// Items that failed in a row: when every item fails, the queue stops instead of circling.
    private var failuresInARow = 0
    /// A queue stops after this many items in a row could not be played: 100,000 missing
    /// files are not tried one by one, each with its notice.
    nonisolated static let mostFailuresInARow = 100

    /// "Previous" within this many seconds of an item's start goes to the item before;
    /// later it starts the item over (as music players do).
    static let restartThreshold = 3.0

    init(player: SessionPlayer, model: PlayerModel, settings: SessionSettings, store: QueueStore = QueueStore(),
         open: @escaping @MainActor (_ source: MediaSource, _ start: Double?, _ play: Bool) -> Void) {
        self.player = player
        self.model = model
        self.settings = settings
        self.store = store
        openItem = open
    }

    func observe(_ observer: @escaping @MainActor () -> Void) { observers.append(observer) }

    private func changed() {
        if settings.rememberQueue { store.save(queue) }
        observers.forEach { $0() }
        refreshNext()
    }

    /// The item that would follow the current one at its end, told to the player again after
    /// every change (a reorder, loop or shuffle changes it; an open clears it in the player).
    private func refreshNext() {
        guard let prepareNext else { return }
        guard let index = queue.nextIndex(automatic: true), index != queue.current else {
            prepareNext(nil)
            return
        }
        prepareNext(queue.items[index])
    }

    // MARK: Filling

    /// Replaces the queue with what was opened (folders and playlists expanded) and plays
    /// the first item.
    func open(_ names: [String], start: Double? = nil, play: Bool = true) {
        let items = parse(QueueSources.expand(names))
        guard !items.isEmpty else {
            // Translators: %@ is the list of file names that were opened.
            notify?(String(format: tr("Nothing to play in %@"),
                           names.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")))
            return
        }
        queue.replace(with: items)
        replacements += 1
        failuresInARow = 0
        changed()
        openCurrent(start: start, play: play)
    }

    /// Writes the queue, in its order, as a playlist at `path` (`PlaylistFile`: XSPF for a
    /// `.xspf` name, else M3U8); says so, or why it could not.
    func save(to path: String) {
        let name = (path as NSString).lastPathComponent
        do {
            try PlaylistFile.write(queue.items, to: path)
            // Translators: %@ is the playlist's file name.
            notify?(String(format: tr("Queue saved as %@"), name))
        } catch {
            // Translators: %1$@ is the playlist's file name, %2$@ why it could not be written.
            notify?(String(format: tr("Cannot save %1$@: %2$@"), name, error.localizedDescription))
        }
    }

    /// Adds to the end without interrupting what plays (starts playing if nothing did).
    func append(_ names: [String]) {
        insert(names, at: queue.items.count)
    }

    /// Adds before item `position` without interrupting what plays (starts playing if nothing
    /// did); returns how many items were added.
    @discardableResult
    func insert(_ names: [String], at position: Int) -> Int {
        let items = parse(QueueSources.expand(names))
        guard !items.isEmpty else { return 0 }
        let wasEmpty = queue.currentItem == nil
        queue.insert(items, at: position)
        changed()
        if wasEmpty { openCurrent(start: nil, play: true) }
        return items.count
    }

    func remove(at index: Int) {
        let wasCurrent = queue.current == index
        queue.remove(at: index)
        changed()
        guard wasCurrent else { return }
        // The item playing went: what followed it plays (or nothing, at the end).
        if queue.items.indices.contains(index) {
            queue.select(index)
            changed()
            openCurrent(start: nil, play: true)
        } else {
            player.close()
        }
    }

    func move(from: Int, to: Int) {
        queue.move(from: from, to: to)
        changed()
    }

    func select(_ index: Int) {
        queue.select(index)
        failuresInARow = 0
        changed()
        openCurrent(start: nil, play: true)
    }

    /// The queue saved at the last run, restored without playing (nil when there is none or
    /// remembering is off).
    func restore() -> Bool {
        guard settings.rememberQueue, let saved = store.load(), let item = saved.currentItem else { return false }
        queue = saved
        replacements += 1
        changed()
        openItem(item, nil, false)
        return true
    }

    /// The names as sources, parsed here once; one that cannot be played from its name (a
    /// scheme other than file, http and https) is left out with a notice.
    private func parse(_ names: [String]) -> [MediaSource] {
        names.compactMap { name in
            do throws(PlayerError) {
                return try MediaSource(parsing: name)
            } catch {
                // Translators: %1$@ is what was opened, %2$@ why it cannot be played.
                notify?(String(format: tr("Cannot play %1$@: %2$@"), name, error.message))
                return nil
            }
        }
    }

    private func openCurrent(start: Double?, play: Bool) {
        guard let item = queue.currentItem else { return }
        openItem(item, start, play)
        refreshNext()
    }

    // MARK: Moving on

    var currentSource: MediaSource? { queue.currentItem }
    var canGoNext: Bool { queue.canGoNext }
    var canGoPrevious: Bool { queue.canGoPrevious || model.hasMedia }

    func next() {
        guard queue.advance(automatic: false) != nil else { return }
        failuresInARow = 0
        changed()
        openCurrent(start: nil, play: true)
    }

    func previous() {
        if model.hasMedia, model.livePosition(now: Clock.now) > Self.restartThreshold || !queue.canGoPrevious {
            player.seek(to: 0)
            return
        }
        guard queue.goBack() != nil else { return }
        failuresInARow = 0
        changed()
        openCurrent(start: nil, play: true)
    }

    /// The current item played to its end; false when nothing follows (the queue is done).
    @discardableResult
    func playedToEnd() -> Bool {
        failuresInARow = 0
        let before = queue.current
        guard queue.advance(automatic: true) != nil else {
            changed()   // stop-after-current cleared
            return false
        }
        changed()
        if queue.current == before, queue.loop == .track {
            player.seek(to: 0)
            player.play()
        } else {
            openCurrent(start: nil, play: true)
        }
        return true
    }

    /// The player moved on to the prepared next item by itself, without a gap.
    func advancedWithoutGap() {
        failuresInARow = 0
        _ = queue.advance(automatic: true)
        changed()
    }

    /// The current item could not be played: with more in the queue, say so and go on.
    func failed(_ error: PlayerError) {
        guard queue.items.count > 1 else { return }
        failuresInARow += 1
        guard failuresInARow < queue.items.count else {
            notify?(String(format: trn("None of the %ld item in the queue can be played",
                                        "None of the %ld items in the queue can be played", queue.items.count),
                           queue.items.count))
            return
        }
        guard failuresInARow < Self.mostFailuresInARow else {
            notify?(String(format: trn("Stopped: %ld item in a row cannot be played",
                                        "Stopped: %ld items in a row cannot be played", failuresInARow),
                           failuresInARow))
            return
        }
        let name = (queue.currentItem.map { ($0.description as NSString).lastPathComponent }) ?? tr("An item")
        guard queue.advance(automatic: false) != nil else {
            notify?(String(format: tr("Skipped %1$@: %2$@"), name, error.message))
            return
        }
        // Translators: %1$@ is the item's name, %2$@ why it cannot be played.
        notify?(String(format: tr("Skipped %1$@: %2$@"), name, error.message))
        changed()
        openCurrent(start: nil, play: true)
    }

    var loopMode: LoopMode {
        get { queue.loop }
        set { queue.loop = newValue; changed() }
    }

    var shuffle: Bool {
        get { queue.shuffle }
        set { queue.setShuffle(newValue); changed() }
    }

    var stopAfterCurrent: Bool {
        get { queue.stopAfterCurrent }
        set { queue.stopAfterCurrent = newValue; changed() }
    }

    private(set) var isStopped = false

    func stop() {
        // Also while an item is still opening: it stays paused at its start.
        guard queue.currentItem != nil else { return }
        isStopped = true
        player.pause()
        player.seek(to: 0)
        observers.forEach { $0() }
    }

    /// The player's state changed: playing again ends a stop.
    func stateChanged(_ state: PlayerState) {
        if state == .playing || !state.hasMedia { isStopped = false }
    }

    func raise() { raiseWindow?() }
    func quit() { quitApplication?() }
    func open(uri: String) { open([uri]) }
}
