import Foundation

/// Gapless moving on: the item that follows (`Player.setNext`) is opened and prerolled in a
/// second slot, `next`, while the current one plays its last seconds. Its sound is chained into
/// the current sound stream, so its first sample follows the current item's last one; the moment
/// that seam is heard, it takes over (`current = next`) with its first picture already decoded.
/// With no sound stream to chain into (silent items, no sound server) it takes over when the
/// current item ends, which still saves the opening and first decode.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {
    /// How long before the current item's end the next one is opened. Long enough for a slow
    /// server and a slow first decode; short enough not to compete with playback for long.
    static let prepareAhead = 10.0

    func setNext(_ source: MediaSource?, audioStream: Int?) {
        let same = upNext?.source == source && upNext?.audioStream == audioStream
        guard !same || source == nil else { return }
        dropNext()
        upNext = source.map { ($0, audioStream, false) }
    }

    /// Starts preparing the follower when the current item nears its end (while playing).
    func watchUpNext() {
        if next != nil { chainIfReady() }
        guard let upNext, next == nil, !upNext.failed, let session, current.preroll == nil, state == .playing,
              let duration = session.info.duration, duration > 0,
              duration - session.clock.time() <= Self.prepareAhead else { return }
        var follower = MediaSlot(generation: newGeneration(), source: upNext.source)
        let initial = SeekRequest(serial: seeks.newSerial(), target: 0, mode: .keyframe, movesDemuxer: false)
        follower.demuxSerial = initial.serial
        follower.preroll = Preroll(request: initial, isInitial: true)
        var configuration = self.configuration
        configuration.audioStream = upNext.audioStream
        configuration.audioLanguages = tracks.preferredAudioLanguages
        follower.loader = startLoading(upNext.source, generation: follower.generation, configuration: configuration,
                                       announcesDuration: false)
        next = follower
    }

    /// A report about the follower.
    func handleForNext(_ message: ControlMessage) {
        switch message {
        case .loaded(let loaded, _): nextLoaded(loaded)
        case .loadFailed:
            // It is opened the ordinary way at the end, which reports the error as usual.
            dropNext()
            upNext?.failed = true
        case .session(let report, _): handleForNext(report)
        default: break
        }
    }

    /// The follower opened: its session starts decoding; while the current session borrows the
    /// sound output, the follower only borrows it when it takes over (its sound chained into the
    /// same stream before, when the stream can chain).
    private func nextLoaded(_ loaded: MediaLoader.Loaded) {
        guard var follower = next, let request = follower.preroll?.request, let playing = session else {
            loaded.input.close()
            return
        }
        follower.finishLoading()
        var configuration = self.configuration
        configuration.audioStream = upNext?.audioStream
        let session = makeSession(loaded, generation: follower.generation, configuration: configuration,
                                  lendsOutput: !playing.hasAudio)
        follower.session = session
        follower.warnings = loaded.warnings
        next = follower
        session.start(initial: request)
    }

    private func handleForNext(_ report: Session.Report) {
        guard var follower = next else { return }
        switch report {
        case .videoArrived(let s, let pts): _ = follower.pictureArrived(serial: s, pts: pts)
        case .audioReady(let s): _ = follower.soundReady(serial: s)
        case .demuxEnded(let s, let error): follower.demuxerEnded(serial: s, error: error)
        case .subtitlesRead(let decoded): follower.heldSubtitles[decoded.track.id] = decoded
        case .frameShown: return
        }
        next = follower
        chainIfReady()
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

    private func chainIfReady() {
        guard var follower = next, !follower.chained, follower.isReady, let session = follower.session,
              let fifo = session.fifo, let output = session.output, output.canChain, state == .playing,
              let playing = self.session?.fifo, output.isReading(playing),
              currentEndsTogether == true else { return }
        let start = follower.startTime
        fifo.discard(before: start)
        follower.chained = output.chain(fifo, startingAt: start)
        next = follower
    }

    /// Forgets the follower (the current item was sought, paused, closed...): whatever was
    /// chained is undone, so the current item plays and ends as if none had been prepared.
    func dropNext() {
        guard var follower = next else { return }
        next = nil
        follower.close()
    }

    /// Hands the screen and the sound to the follower. The current session goes; the state
    /// stays playing; the host hears `nextItemStarted` and then the new media's events.
    func advanceToNext() {
        guard var follower = next, let incoming = follower.session, current.session != nil else { return }
        next = nil
        upNext = nil
        let start = follower.startTime
        let (warnings, held) = (follower.warnings, follower.heldSubtitles)
        let continues = follower.chained
        // The follower borrows the output before the current session goes, which then leaves it
        // alone: a chained sound plays on, any other starts with the next start.
        if let fifo = incoming.fifo { incoming.output?.adopt(fifo, clock: incoming.clock) }
        current.close()
        follower.takeOver()
        current = follower
        seeks.reset()
        incoming.clock.follow(incoming.output)
        // Landed before it is published: the presenter never finds it without a picture.
        _ = incoming.presentation?.land()
        // Unless chained, the sound starts afresh: from the first picture's time on.
        if !continues { incoming.fifo?.discard(before: start) }
        incoming.clock.set(start)
        emit(.nextItemStarted(source: incoming.input.source))
        publish(incoming, warnings: warnings)
        for decoded in held.values { subtitlesRead(decoded) }
        startClock()
        emit(.displayInvalidated)
        emitTime()
    }
}
