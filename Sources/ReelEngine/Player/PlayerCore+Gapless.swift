import Foundation

/// Gapless moving on: the item that follows (`Player.setNext`) is opened and prerolled in a
/// second session while the current one plays its last seconds. Its sound is chained into the
/// current sound stream, so its first sample follows the current item's last one; the moment
/// that seam is heard, its session takes over and its first picture is already decoded. With
/// no sound stream to chain into (silent items, no sound server) it takes over when the current
/// item ends, which still saves the opening and first decode.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {
    /// The follower being prepared: loading, then a session prerolling in the background.
    struct Prepared {
        let source: MediaSource
        let generation: Int
        let serial: Int
        var loader: MediaLoader?
        var session: Session?
        var videoPts: Double?
        var videoArrived = false
        var audioReady = false
        /// Its sound is chained behind the current item's in the same stream.
        var chained = false
        var demuxEnded: (serial: Int, error: PlayerError?)?
        /// Remote media: subtitle tracks read while it was prepared, applied when it takes over.
        var subtitlesRead: [Int: DecodedSubtitles] = [:]
        /// What loading it found worth saying, said when it takes over.
        var warnings: [String] = []

        /// Its first picture and first sound are decoded: it can take over at once.
        var isReady: Bool {
            guard let session else { return false }
            return (!session.hasVideo || videoArrived) && (!session.hasAudio || audioReady)
        }
    }

    /// How long before the current item's end the next one is opened. Long enough for a slow
    /// server and a slow first decode; short enough not to compete with playback for long.
    static let prepareAhead = 10.0

    func setNext(_ source: MediaSource?, audioStream: Int?) {
        let same = upNext?.source == source && upNext?.audioStream == audioStream
        guard !same || source == nil else { return }
        dropPrepared()
        upNext = source.map { ($0, audioStream) }
        upNextFailed = false
    }

    /// Starts preparing the follower when the current item nears its end (while playing).
    func watchUpNext() {
        if prepared != nil { chainIfReady() }
        guard let upNext, prepared == nil, !upNextFailed, let session, preroll == nil, state == .playing,
              let duration = session.info.duration, duration > 0,
              duration - session.clock.time() <= Self.prepareAhead else { return }
        let gen = newGeneration()
        serial += 1
        let loader = MediaLoader()
        prepared = Prepared(source: upNext.source, generation: gen, serial: serial, loader: loader)
        var configuration = self.configuration
        configuration.audioStream = upNext.audioStream
        configuration.audioLanguages = subtitles.preferredAudioLanguages
        let mailbox = self.mailbox
        loader.start(source: upNext.source, configuration: configuration, durationKnown: { _ in },
                     cacheEvent: { mailbox.post(.cache($0, generation: gen)) }) { result in
            switch result {
            case .success(let loaded): mailbox.post(.loaded(loaded, generation: gen))
            case .failure(let error): mailbox.post(.loadFailed(error, generation: gen))
            }
        }
    }

    /// The follower opened: its session starts decoding, sharing the current sound stream when
    /// both have sound and the stream can chain.
    func preparedLoaded(_ loaded: MediaLoader.Loaded) {
        guard var p = prepared, let current = session else { loaded.input.close(); return }
        p.loader?.join()
        p.loader = nil
        let shared = current.hasAudio && loaded.audioDecoder != nil ? current.output : nil
        let gen = p.generation
        let mailbox = self.mailbox
        var configuration = self.configuration
        configuration.audioStream = upNext?.audioStream
        let next = Session(loaded: loaded, configuration: configuration,
                           sharedOutput: shared.flatMap { $0.canChain ? $0 : nil }) { report in
            mailbox.post(.session(report, generation: gen))
        }
        next.presentation?.reportsEveryFrame = observesEveryFrame
        next.setSpeed(speed)
        p.session = next
        p.warnings = loaded.warnings
        prepared = p
        next.start(initial: SeekRequest(serial: p.serial, target: 0, mode: .keyframe, movesDemuxer: false))
    }

    func preparedFailed(_ error: PlayerError) {
        // It is opened the ordinary way at the end, which reports the error as usual.
        dropPrepared()
        upNextFailed = true
    }

    func handlePrepared(_ report: Session.Report) {
        guard var p = prepared else { return }
        switch report {
        case .videoArrived(let s, let pts):
            guard s == p.serial else { return }
            p.videoArrived = true
            p.videoPts = pts.isNaN ? nil : pts
        case .audioReady(let s):
            guard s == p.serial else { return }
            p.audioReady = true
        case .demuxEnded(let s, let error):
            p.demuxEnded = (s, error)
        case .subtitlesRead(let decoded):
            p.subtitlesRead[decoded.track.id] = decoded
        case .frameShown:
            return
        }
        prepared = p
        chainIfReady()
    }

    /// Where the follower starts: its earliest picture or sound.
    private func startOf(_ p: Prepared) -> Double {
        [p.videoPts, p.session?.fifo?.peekPts()].compactMap { $0 }.min() ?? 0
    }

    /// The current item's sound lasts (within a quarter second) as long as the media: only
    /// then may the next sound follow its last sample, since the hand-over happens when the
    /// seam is heard and would cut pictures still due. Known once the sound decoder reaches the
    /// end, about a second of buffered sound before it is heard.
    private var currentEndsTogether: Bool? {
        guard let session, let audioEnd = session.fifo?.endPts else { return nil }
        guard session.hasVideo else { return true }
        guard let duration = session.info.duration else { return false }
        return audioEnd >= duration - 0.25
    }

    func chainIfReady() {
        guard var p = prepared, !p.chained, p.isReady, let next = p.session, let fifo = next.fifo,
              let output = next.output, !next.ownsOutput, state == .playing,
              currentEndsTogether == true else { return }
        let start = startOf(p)
        fifo.discard(before: start)
        p.chained = output.chain(fifo, startingAt: start)
        prepared = p
    }

    /// Forgets the follower (the current item was sought, paused, closed...): whatever was
    /// chained is undone, so the current item plays and ends as if none had been prepared.
    func dropPrepared() {
        guard let p = prepared else { return }
        prepared = nil
        p.loader?.cancel()
        p.loader?.join()
        if let next = p.session {
            if p.chained { next.output?.unchain() }
            next.shutdown()
        }
    }

    /// Hands the screen and the sound to the follower. The current session goes; the state
    /// stays playing; the host hears `nextItemStarted` and then the new media's events.
    func advanceToPrepared() {
        guard let p = prepared, let next = p.session, let old = session else { return }
        prepared = nil
        upNext = nil
        let start = startOf(p)
        let shared = !next.ownsOutput
        if shared { old.handOverOutput() }
        old.shutdown()
        if shared, let fifo = next.fifo {
            next.takeOverOutput()
            next.output?.adopt(fifo)
        }
        generation = p.generation
        session = next
        demuxSerial = p.serial
        demuxEnded = p.demuxEnded?.serial == p.serial ? p.demuxEnded : nil
        audioDetached = false
        audioStale = false
        starvedSince = nil
        pendingSteps = 0
        pendingBackSteps = 0
        pendingScrub = nil
        firstFrameReported = false
        durationAnnounced = false
        next.clock.follow(next.output)
        // Landed before it is published: the presenter never finds it without a picture.
        _ = next.presentation?.land()
        // Without a shared stream the sound starts afresh: from the first picture's time on.
        if !shared { next.fifo?.discard(before: start) }
        next.clock.set(start)
        emit(.nextItemStarted(source: next.input.source.description))
        publish(next, warnings: p.warnings)
        for decoded in p.subtitlesRead.values { subtitlesRead(decoded) }
        startClock()
        emit(.displayInvalidated)
        emitTime()
    }
}
