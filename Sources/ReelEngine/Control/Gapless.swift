import Foundation

/// Gapless moving on: the item that follows (`Player.setNext`) is opened and prerolled in a
/// second slot, `next`, while the current one plays its last seconds. Its sound is chained into
/// the current sound stream, so its first sample follows the current item's last one; the moment
/// that seam is heard, it takes over (`current = next.take()!`) with its first picture already decoded.
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

    /// Starts preparing the follower when the current item nears its end (while playing);
    /// returns when that will be.
    func watchUpNext() -> HostTime? {
        if loopHoldsSeam { dropNext(); return nil }
        if next != nil { chainIfReady() }
        guard let upNext, next == nil, !upNext.failed, let session, current.preroll == nil, state == .playing,
              let duration = session.info.duration, duration > 0 else { return nil }
        guard duration - session.clock.time() <= Self.prepareAhead else {
            return lookAgain(whenClockReaches: duration - Self.prepareAhead)
        }
        var follower = MediaSlot(generation: newGeneration(), source: upNext.source)
        let initial = SeekRequest(serial: seeks.newSerial(), target: 0, mode: .keyframe, movesDemuxer: false)
        follower.demuxerMoved(serial: initial.serial)
        follower.beginLanding(initial, isInitial: true)
        var configuration = self.configuration
        configuration.audioStream = upNext.audioStream
        configuration.audioLanguages = tracks.preferredAudioLanguages
        follower.loader = startLoading(upNext.source, generation: follower.generation, configuration: configuration,
                                       announcesDuration: false)
        next = consume follower
        return nil
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
        guard let generation = next?.generation, let request = next?.preroll?.request, let playing = session else {
            loaded.input.close()
            return
        }
        next!.finishLoading()
        var configuration = self.configuration
        configuration.audioStream = upNext?.audioStream
        let session = makeSession(loaded, generation: generation, configuration: configuration,
                                  lendsOutput: !playing.hasAudio)
        next!.attach(session)
        next!.warnings = loaded.warnings
        session.start(initial: request)
    }

    private func handleForNext(_ report: Session.Report) {
        guard next != nil else { return }
        switch report {
        case .videoArrived(let s, let pts): _ = next!.pictureArrived(serial: s, pts: pts)
        case .audioReady(let s): _ = next!.soundReady(serial: s)
        case .demuxEnded(let s, let error): next!.demuxerEnded(serial: s, error: error)
        case .subtitlesRead(let decoded): next!.heldSubtitles[decoded.track.id] = decoded
        case .frameShown, .decoded, .decoderEnded, .deinterlacing: return
        }
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
        guard next?.chained == false, next?.isReady == true, let session = next?.session,
              let fifo = session.fifo, let output = session.output, output.canChain, state == .playing,
              let playing = self.session?.fifo, output.isReading(playing),
              currentEndsTogether == true else { return }
        let start = next?.startTime ?? 0
        fifo.discard(before: start)
        next!.chained = output.chain(fifo, startingAt: start)
    }

    /// Forgets the follower (the current item was sought, paused, closed...): whatever was
    /// chained is undone, so the current item plays and ends as if none had been prepared.
    func dropNext() {
        guard var follower = next.take() else { return }
        follower.close()
    }

    /// Hands the screen and the sound to the follower. The current session goes; the state
    /// stays playing; the host hears `nextItemStarted` and then the new media's events.
    func advanceToNext() {
        guard let incoming = next?.session, current.session != nil else { return }
        clearLoop()
        upNext = nil
        let start = next?.startTime ?? 0
        let (warnings, held) = (next?.warnings ?? [], next?.heldSubtitles ?? [:])
        let continues = next?.chained == true
        // The follower borrows the output before the current session goes, which then leaves it
        // alone: a chained sound plays on, any other starts with the next start.
        if let fifo = incoming.fifo { incoming.output?.adopt(fifo, clock: incoming.clock) }
        current.close()
        current = next.take()!
        current.takeOver()
        seeks.reset()
        incoming.clock.follow(incoming.output)
        // Landed before it is published: the presenter never finds it without a picture.
        _ = incoming.presentation?.land()
        // Unless chained, the sound starts afresh: from the first picture's time on.
        if !continues { incoming.fifo?.discard(before: start) }
        incoming.clock.set(start)
        emit(.nextItemStarted(source: incoming.input.source))
        publish(incoming, warnings: warnings)
        if let status = incoming.deinterlacing { emit(.deinterlacingChanged(status)) }
        for decoded in held.values { subtitlesRead(decoded) }
        startClock()
        emit(.displayInvalidated)
        emitTime()
    }
}
