import Foundation

/// One item being played, or prepared to follow the one playing (gapless): its loading, its
/// running session, its landing, and what the control loop watches of it. The player holds two,
/// `current` and `next`; the gapless hand-over is `current = next`, and closing is one `close()`.
/// Threading: a value held and used by the control loop only.
struct MediaSlot {
    /// Tells this item's reports from those of items closed before; a new one for every item
    /// opened or prepared (`PlayerCore.newGeneration`), compared by the loop against the
    /// generation every report carries.
    let generation: Int
    let source: MediaSource?
    var loader: MediaLoader?
    var session: Session?
    var preroll: Preroll?
    /// The serial of the last request that moved the demuxer (a retarget or a landing from
    /// decoded pictures leaves the demuxer, and its end, as they were): the demuxer's end
    /// counts only when it reports this serial.
    var demuxSerial = 0
    var demuxEnded: (serial: Int, error: PlayerError?)?
    /// Its sound is over while pictures remain: the clock runs on its own.
    var audioDetached = false
    /// Since when its queues have been empty with the demuxer still reading.
    var starvedSince: HostTime?
    var firstFrameReported = false
    var durationAnnounced = false
    /// A follower's sound chained behind the current item's in the same stream.
    var chained = false
    /// A follower's subtitle tracks read while it was prepared, applied when it takes over.
    var heldSubtitles: [Int: DecodedSubtitles] = [:]
    /// What loading it found worth saying, said when it is published.
    var warnings: [PlayerWarning] = []

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

    private init(closing old: MediaSlot) {
        self.init(generation: old.generation, source: old.source)
        firstFrameReported = old.firstFrameReported
        durationAnnounced = old.durationAnnounced
    }

    /// The loader's work is done (its result is in hand).
    mutating func finishLoading() {
        loader?.join()
        loader = nil
    }

    /// A request moved the demuxer: what was known of its end and of starving is void.
    mutating func demuxerMoved(serial: Int) {
        demuxSerial = serial
        demuxEnded = nil
        audioDetached = false
        starvedSince = nil
    }

    /// The first picture of the landing under `serial` arrived; false for another landing's.
    mutating func pictureArrived(serial: Int, pts: Double) -> Bool {
        guard var p = preroll, p.request.serial == serial else { return false }
        p.videoArrived = true
        p.videoPts = pts.isNaN ? nil : pts
        preroll = p
        return true
    }

    /// The sound of the landing under `serial` is ready; false for another landing's.
    mutating func soundReady(serial: Int) -> Bool {
        guard var p = preroll, p.request.serial == serial else { return false }
        p.audioReady = true
        preroll = p
        return true
    }

    /// The demuxer met the end (or an error) for `serial`; an older request's end is ignored.
    mutating func demuxerEnded(serial: Int, error: PlayerError?) {
        guard serial == demuxSerial else { return }
        demuxEnded = (serial, error)
    }

    /// The demuxer has read everything since the last request that moved it.
    var demuxDone: Bool { demuxEnded?.serial == demuxSerial }

    /// Its first picture and first sound are decoded: it can be shown and heard at once.
    var isReady: Bool {
        guard let session, let p = preroll else { return false }
        return (!session.hasVideo || p.videoArrived) && (!session.hasAudio || p.audioReady)
    }

    /// Where it starts: its earliest landed picture or decoded sound.
    var startTime: Double {
        [preroll?.videoPts, session?.fifo?.peekPts()].compactMap { $0 }.min() ?? 0
    }

    /// A prepared follower becomes the item playing: its landing is taken as done and its sound
    /// is the stream's own (no longer chained behind another's).
    mutating func takeOver() {
        preroll = nil
        chained = false
        heldSubtitles = [:]
        warnings = []
    }
}
