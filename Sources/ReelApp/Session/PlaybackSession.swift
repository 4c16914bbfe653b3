import Foundation
import ReelEngine
import ReelGtk

/// What plays and where it was left: the queue (what plays next, unplayable items skipped),
/// the resume history (offered, set aside when damaged, forgotten at the end), what the player
/// prepares to follow, breaks belonging to their item, and playing on in the background.
/// A plain type: it asks a `SessionPlayer` and a `SessionWindow` for everything it needs done,
/// reads the player's model and follows its changes (`follow`), so its rules run without a
/// window.
/// Threading: main thread only.
@MainActor
final class PlaybackSession {
    private let player: SessionPlayer
    private let model: PlayerModel
    private weak var window: SessionWindow?
    private let settings: SessionSettings
    /// What plays after what; next/previous; remembered across restarts.
    private(set) var queue: QueueController!
    /// Where files were left; the key and source of what is open now.
    let history: ResumeHistory
    private var historyKey: String?
    private var historySource: MediaSource?
    private var lastHistorySave = Date.distantPast
    /// The time now (a parameter so that the periodic save can be checked without waiting).
    private let now: () -> Date
    /// Hidden by closing while playing in the background.
    private(set) var inBackground = false
    /// The last answer of `resumes`, kept until the next item opens.
    private var nextResumes: (item: MediaSource, resumes: Bool)?
    /// Web pages whose list of videos already joined the queue (a reopening lists them again).
    private var listedPages: Set<String> = []

    /// A crash or power cut loses at most this much of where the film was.
    static let historySaveInterval = 10.0

    init(player: SessionPlayer, model: PlayerModel, window: SessionWindow, settings: SessionSettings,
         queueStore: QueueStore = QueueStore(), history: ResumeHistory = ResumeHistory(),
         now: @escaping () -> Date = Date.init) {
        self.player = player
        self.model = model
        self.window = window
        self.settings = settings
        self.history = history
        self.now = now
        queue = QueueController(player: player, model: model, settings: settings, store: queueStore) { [weak self] source, start, play in
            self?.load(source, start: start, play: play)
        }
        queue.notify = { [weak self] text in self?.window?.notify(text, actions: [], seconds: Notice.seconds) }
        queue.prepareNext = { [weak self] item in self?.prepareNext(item) }
        queue.raiseWindow = { [weak self] in self?.present() }
    }

    // MARK: Opening

    /// Replaces the queue with `sources` (folders and playlists expanded) and opens the first.
    func open(_ sources: [String], start: Double? = nil, paused: Bool = false) {
        queue.open(sources, start: start, play: !paused && settings.autoplay)
    }

    /// Adds to the queue without interrupting what plays.
    func enqueue(_ sources: [String]) { queue.append(sources) }

    /// Reopens the queue of the last run (paused on its current item); false when there is none.
    func restoreQueue() -> Bool { queue.restore() }

    /// The resume history's key of `source` (its content's fingerprint, for a file): the one
    /// taken when it opened, so the file is not read for it again.
    func historyKey(for source: MediaSource) -> String? {
        historySource == source ? historyKey : ResumeHistory.key(for: source)
    }

    /// Opens one item of the queue, where it was left when the history remembers it.
    private func load(_ source: MediaSource, start: Double?, play: Bool) {
        saveResumePosition()
        nextResumes = nil   // what was played since may have left a position
        // Breaks belong to the item they were scheduled in.
        player.clearBreaks()
        historySource = source
        historyKey = ResumeHistory.key(for: source)
        let mode = settings.resumePlayback
        guard start == nil, mode != .never, let key = historyKey, let resume = history.position(forKey: key) else {
            player.open(source, start: start, paused: !play)
            if play && !settings.autoplay { player.play() }
            return
        }
        let time = TimeFormat.clock(resume)
        if mode == .ask {
            player.open(source, start: nil, paused: true)
            // Translators: %@ is a time in the video, such as 1:23:45.
            window?.notify(String(format: tr("Resume from %@?"), time), actions: [
                NoticeAction(label: tr("Resume")) { [weak self] in
                    self?.player.seek(to: resume)
                    self?.player.play()
                },
                NoticeAction(label: tr("Start Over")) { [weak self] in self?.player.play() },
            ], seconds: 30)
        } else {
            player.open(source, start: resume, paused: !play)
            if play && !settings.autoplay { player.play() }
            window?.notify(String(format: tr("Resumed from %@"), time), actions: [
                NoticeAction(label: tr("Start Over")) { [weak self] in self?.player.seek(to: 0) },
            ], seconds: 8)
        }
    }

    /// Tells the player what follows, to be prepared ahead. An item with a remembered position
    /// is left to open the ordinary way, so that it resumes there.
    private func prepareNext(_ item: MediaSource?) {
        guard let item else { player.setNext(nil, audioStream: nil); return }
        if settings.resumePlayback != .never, resumes(item) {
            player.setNext(nil, audioStream: nil)
            return
        }
        player.setNext(item, audioStream: settings.audioChoice(for: item.description))
    }

    /// Whether the resume history holds a position for `item`. Its key reads two megabytes of
    /// the file, and the queue asks again after every change: the last answer is kept until
    /// the next item opens.
    private func resumes(_ item: MediaSource) -> Bool {
        if let known = nextResumes, known.item == item { return known.resumes }
        let answer = ResumeHistory.key(for: item).flatMap { history.position(forKey: $0) } != nil
        nextResumes = (item, answer)
        return answer
    }

    // MARK: Resume history

    /// Writes where the open file is (at pauses, switches, quitting, and now and then).
    func saveResumePosition() {
        lastHistorySave = now()
        history.save()
    }

    /// Saves and stops following the player: closing it reports the position going back to
    /// nothing, which must not overwrite where the film was left.
    func finishResumeHistory() {
        saveResumePosition()
        historyKey = nil
        historySource = nil
    }

    // MARK: Breaks

    /// A break in what is open, from "CLIP@SECONDS" (0: before it); a notice when the text
    /// does not say one or the player has no breaks.
    func scheduleBreak(_ text: String) {
        guard let at = text.lastIndex(of: "@"), let seconds = Double(text[text.index(after: at)...]), seconds >= 0,
              let clip = try? MediaSource(parsing: String(text[..<at])),
              player.scheduleBreak(clip, at: seconds) else {
            // Translators: %@ is what was given; CLIP@SECONDS is the form expected (keep it as it is).
            window?.notify(String(format: tr("Cannot schedule a break from “%@”: give CLIP@SECONDS"), text),
                           actions: [], seconds: Notice.seconds)
            return
        }
    }

    // MARK: The window going and coming back

    /// The window is asked to close: true when it should only hide, playing on in the
    /// background (a preference); false when it closes and playback ends.
    func closeRequested() -> Bool {
        if settings.backgroundPlayback, model.isPlaying {
            inBackground = true
            return true
        }
        finishResumeHistory()
        return false
    }

    /// Shows the window again after it went to the background.
    func present() {
        inBackground = false
        window?.present()
    }

    // MARK: Following the player

    /// What the player's model changed, in the order it happened.
    func follow(_ change: PlayerModel.Change) {
        switch change.moment {
        case .breakStarted(let report):
            // Translators: an ad break starts; %@ is the clip it plays.
            window?.notify(String(format: tr("Break: %@"), report.source.displayName), actions: [], seconds: 3)
        case .nextItemStarted:
            // As at any end: the finished item is forgotten by the resume history, its breaks
            // go with it, and the queue moves on (which tells the player what follows next).
            if let key = historyKey { history.forget(key: key) }
            saveResumePosition()
            player.clearBreaks()
            queue.advancedWithoutGap()
            historySource = queue.currentSource
            historyKey = queue.currentSource.flatMap { ResumeHistory.key(for: $0) }
        case .loaded(let info):
            queueListedVideos(info)
        case .playedToEnd:
            if let key = historyKey { history.forget(key: key) }
            let goesOn = queue.playedToEnd()
            // Playing in the background and the queue is done: nothing left to keep Reel for.
            if inBackground, !goesOn { window?.closeWindow() }
        default:
            break
        }
        if change.contains(.state) {
            let state = model.state
            queue.stateChanged(state)
            if state != .playing { saveResumePosition() }
            if case .failed(let error) = state { queue.failed(error) }
        }
        // Where the film is, each time the player reports it or a seek lands there (the time of
        // a break does not reach the model; the end, the next item and an opening are not
        // reports of it).
        if change.reportsPosition, !model.timeline.playedThrough,
           let key = historyKey, let source = historySource, model.hasMedia {
            history.record(key: key, source: source.description, position: model.position, duration: model.duration)
            if now().timeIntervalSince(lastHistorySave) > Self.historySaveInterval { saveResumePosition() }
        }
    }

    /// A web page listing several videos (a playlist, a page of clips): the others join the
    /// queue right after it, once, as a playlist file's items would.
    private func queueListedVideos(_ info: MediaInfo) {
        guard info.webPageEntries.count > 1, let page = info.webPage, !listedPages.contains(page),
              let current = queue.queue.current, queue.currentSource == (try? MediaSource(parsing: page)) else { return }
        listedPages.insert(page)
        let added = queue.insert(Array(info.webPageEntries.dropFirst()), at: current + 1)
        guard added > 0 else { return }
        // Translators: a web page listed several videos; %ld of them were added to the queue.
        window?.notify(String(format: trn("%ld more video from the page is in the queue", "%ld more videos from the page are in the queue", added), added),
                       actions: [], seconds: 4)
    }
}
