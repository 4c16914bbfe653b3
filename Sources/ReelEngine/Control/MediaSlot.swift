import Foundation

/// One item being played, or prepared to follow the one playing (gapless): its loading, its
/// running session, its landing, and where its video, its sound and its demuxer are (a named
/// status each, as mpv keeps one per stream). The player holds two, `current` and `next`; it
/// owns the item's threads (through its loader and session), so it is never copied: the
/// gapless hand-over moves it, `current = next.take()!`, and closing is one `close()`.
/// Threading: a value held and used by the control loop only.
struct MediaSlot: ~Copyable {
    /// Tells this item's reports from those of items closed before; a new one for every item
    /// opened or prepared (`PlayerCore.newGeneration`), compared by the loop against the
    /// generation every report carries.
    let generation: Int
    let source: MediaSource?
    var loader: MediaLoader?
    private(set) var session: Session?
    /// The landing under way, if any.
    private(set) var preroll: Preroll?
    private(set) var video = StreamStatus.none
    private(set) var audio = StreamStatus.none
    /// The demuxer's end counts only for the request that last moved it.
    private(set) var demuxer = DemuxerStatus.reading(serial: 0)
    var firstFrameReported = false
    var durationAnnounced = false
    /// A follower's sound chained behind the current item's in the same stream.
    var chained = false
    /// A follower's subtitle tracks read while it was prepared, applied when it takes over.
    var heldSubtitles: [Int: DecodedSubtitles] = [:]
    /// What loading it found worth saying, said when it is published.
    var warnings: [PlayerWarning] = []
    /// Its remote media's download gave up (the network is gone): see `EndVerdict`.
    var downloadFailure: PlayerError?

    init(generation: Int, source: MediaSource? = nil) {
        self.generation = generation
        self.source = source
    }

    /// Stops its threads and frees its media; a chained sound is unchained first so the stream
    /// plays on as if nothing had followed. It keeps its generation and what it announced, so
    /// late reports from its threads are still recognised and not announced twice.
    mutating func close() {
        loader?.cancel()
        loader?.join()
        if chained { session?.output?.unchain() }
        session?.shutdown()
        self = MediaSlot(closing: self)
    }

    private init(closing old: borrowing MediaSlot) {
        self.init(generation: old.generation, source: old.source)
        firstFrameReported = old.firstFrameReported
        durationAnnounced = old.durationAnnounced
    }

    /// The loader's work is done (its result is in hand).
    mutating func finishLoading() {
        loader?.join()
        loader = nil
    }

    /// Its media loaded: the streams it has wait for the landing under way, if any.
    mutating func attach(_ session: Session) {
        self.session = session
        let status: StreamStatus = preroll != nil ? .syncing : .playing
        video = session.hasVideo ? status : .none
        audio = session.hasAudio ? status : .none
    }

    // MARK: - Landing

    /// A landing starts: its picture (and, unless `soundToo` is false, a retarget's, its sound)
    /// waits for the decoder. A landing that replaces one under way keeps it the first if it was.
    mutating func beginLanding(_ request: SeekRequest, isInitial: Bool = false, soundToo: Bool = true) {
        preroll = Preroll(request: request, isInitial: isInitial || (preroll?.isInitial ?? false))
        if video != .none || session == nil { video = .syncing }
        if soundToo && (audio != .none || session == nil) { audio = .syncing }
        if !soundToo, audio.starvingSince != nil { audio = .playing }
    }

    /// The first picture of the landing under `serial` arrived; false for another landing's.
    mutating func pictureArrived(serial: Int, pts: Double) -> Bool {
        guard preroll?.request.serial == serial else { return false }
        video = .ready(at: pts.isNaN ? nil : pts)
        return true
    }

    /// The sound of the landing under `serial` is ready; false for another landing's.
    mutating func soundReady(serial: Int) -> Bool {
        guard preroll?.request.serial == serial else { return false }
        audio = .ready(at: nil)
        return true
    }

    /// The picture has arrived (or the item has none).
    var pictureDone: Bool { session?.hasVideo == false || video.isReady }

    /// The sound is in, the item has none, or the landing leaves it where it was.
    var soundDone: Bool { session?.hasAudio == false || audio != .syncing }

    /// The landing is over: what it waited for plays from now on.
    mutating func landed() {
        preroll = nil
        if video != .none { video = .playing }
        if audio != .none && audio != .ended { audio = .playing }
    }

    /// Its first picture and first sound are decoded: it can be shown and heard at once.
    var isReady: Bool {
        guard session != nil, preroll != nil else { return false }
        return pictureDone && (session?.hasAudio == false || audio.isReady)
    }

    /// Where it starts: its earliest landed picture or decoded sound.
    var startTime: Double {
        var picture: Double?
        if case .ready(let at) = video { picture = at }
        return [picture, session?.fifo?.peekPts()].compactMap { $0 }.min() ?? 0
    }

    /// A prepared follower becomes the item playing: its landing is taken as done and its sound
    /// is the stream's own (no longer chained behind another's).
    mutating func takeOver() {
        landed()
        chained = false
        heldSubtitles = [:]
        warnings = []
    }

    // MARK: - Demuxer

    /// A request moved the demuxer: what was known of its end, of starving and of the sound's
    /// end is void.
    mutating func demuxerMoved(serial: Int) {
        demuxer = .reading(serial: serial)
        if audio == .ended { audio = .playing }
        stopStarving()
    }

    /// A retry under a new serial: the demuxer reads again for it.
    mutating func demuxerRetried(serial: Int) {
        demuxer = .reading(serial: serial)
    }

    /// The demuxer met the end (or an error) for `serial`; an older request's end is ignored.
    mutating func demuxerEnded(serial: Int, error: PlayerError?) {
        guard serial == demuxer.serial else { return }
        demuxer = .ended(serial: serial, error: error)
    }

    /// The demuxer has read everything since the last request that moved it.
    var demuxDone: Bool { if case .ended = demuxer { true } else { false } }

    /// Why the demuxer stopped, when it was not a clean end.
    var demuxError: PlayerError? { if case .ended(_, let error) = demuxer { error } else { nil } }

    // MARK: - Playing

    /// Its sound is all heard while pictures remain.
    mutating func soundEnded() { audio = .ended }

    /// The streams run dry now (each, with the demuxer still reading); since when the first of
    /// them has, while any does.
    mutating func starving(video videoDry: Bool, audio audioDry: Bool, now: HostTime = .now) -> HostTime? {
        if video != .none { video = videoDry ? .starving(since: video.starvingSince ?? now) : .playing }
        if audio != .none && audio != .ended { audio = audioDry ? .starving(since: audio.starvingSince ?? now) : .playing }
        return [video.starvingSince, audio.starvingSince].compactMap { $0 }.min()
    }

    /// Nothing is starving any more (a stall is over, a seek or retarget moved on).
    mutating func stopStarving() {
        if video.starvingSince != nil { video = .playing }
        if audio.starvingSince != nil { audio = .playing }
    }
}
