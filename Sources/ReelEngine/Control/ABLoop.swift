import Foundation

/// The A-B loop (`Player.setLoop`): while playing inside the span, reaching its end goes back
/// to its start without a gap. The jump is prepared the way the gapless queue prepares the next
/// item: the same media opened in a second slot, `loopStart`, landed by an exact seek at the
/// start, its first picture decoded and its sound chained into the same output stream, with
/// the current sound cut at the end (`AudioFifo.cut`), so the start's first sample follows the
/// end's last; when that seam is heard the prepared slot takes over, its picture at the start
/// already decoded. Without a stream to chain into (no sound server, no sound) it takes over
/// when the clock reaches the end; when nothing could be prepared in time, an exact seek goes
/// back instead (mpv's ab-loop is always that seek). The slot is prepared again after every
/// jump; the span is cleared when the item changes.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {
    func setLoop(_ span: LoopSpan?) {
        let sameStart = span?.start == loop.span?.start && span?.loops == true
        unchainLoop()
        if !sameStart { dropLoopStart() }
        loop.set(span, at: state == .playing ? session?.clock.time() : nil)
        emit(.loopChanged(span))
    }

    /// What a command does to the loop (before the command itself is carried out): what moves
    /// the position undoes the chain and disarms it (the landing decides anew); what changes
    /// the decoded sound or pictures (speed, deinterlacing, tracks) makes the prepared start
    /// stale; another item clears the span.
    func loopHears(_ command: PlayerCommand) {
        switch command {
        case .setVolume, .setMuted, .setLevelling, .setTimeObserverInterval, .setObservesEveryFrame, .setNext, .setLoop,
             .prefetchPicture:
            return
        case .open, .openFailed, .close:
            clearLoop()
        case .setSpeed, .setDeinterlace, .track:
            dropLoopStart()
            loop.disarm()
        case .play, .pause, .togglePause, .seek, .stepForward, .stepBackward, .scrub, .endScrub:
            unchainLoop()
            loop.disarm()
        }
    }

    /// The item changed (opened, closed, the next one took over): its span goes with it.
    func clearLoop() {
        dropLoopStart()
        loopStartFailed = false
        loopOrigin = nil
        guard loop.span != nil else { return }
        loop.set(nil)
        emit(.loopChanged(nil))
    }

    /// While a span loops and playback has not passed its end, the output's seam is the loop's:
    /// the gapless follower waits.
    var loopHoldsSeam: Bool {
        guard let end = loop.span?.end, loop.span?.loops == true, let session else { return false }
        return session.clock.time() < end
    }

    /// Looks at the loop while playing; returns when to look again.
    func watchLoop() -> HostTime? {
        guard let session, state == .playing, current.preroll == nil else { return nil }
        if loopStart?.chained == true, session.output?.seamHeard == true {
            loopBack()
            return nil
        }
        switch loop.look(at: session.clock.time(), playing: true) {
        case .idle, .past:
            unchainLoop()
            return nil
        case .before(let start):
            unchainLoop()
            // Prepared once the start is near, as the gapless follower is before the end.
            guard start - session.clock.time() <= Self.prepareAhead else {
                return lookAgain(whenClockReaches: start - Self.prepareAhead)
            }
            prepareLoopStart()
            return lookAgain(whenClockReaches: start)
        case .inside(let end):
            prepareLoopStart()
            chainLoopIfReady(end: end)
            // Chained, the seam is heard with the end's last sample; otherwise the clock's
            // reaching the end is the moment.
            return loopStart?.chained == true ? lookAgain(whenHearing: end) : lookAgain(whenClockReaches: end)
        case .jump(let start):
            if loopStart?.isReady == true {
                loopBack()
            } else {
                unchainLoop()
                snapshot.withLock { $0.loopJumps.bySeek += 1 }
                reseek(to: start, mode: .exact)
            }
            return nil
        }
    }

    // MARK: - The prepared start

    /// Opens the media again in `loopStart`, landing exactly at the span's start.
    private func prepareLoopStart() {
        guard loopStart == nil, !loopStartFailed, let span = loop.span, let source = current.source ?? session?.input.source
        else { return }
        var slot = MediaSlot(generation: newGeneration(), source: source)
        let request = SeekRequest(serial: seeks.newSerial(), target: span.start, mode: .exact, movesDemuxer: true)
        slot.demuxerMoved(serial: request.serial)
        slot.beginLanding(request, isInitial: true)
        slot.loader = startLoading(source, generation: slot.generation, configuration: configuration,
                                   announcesDuration: false)
        loopStart = consume slot
    }

    /// A report about the prepared start.
    func handleForLoopStart(_ message: ControlMessage) {
        switch message {
        case .loaded(let loaded, _): loopStartLoaded(loaded)
        case .loadFailed:
            // Not tried again for this item: the loop goes back by seeking.
            dropLoopStart()
            loopStartFailed = true
        case .session(let report, _):
            guard loopStart != nil else { return }
            switch report {
            case .videoArrived(let s, let pts): _ = loopStart!.pictureArrived(serial: s, pts: pts)
            case .audioReady(let s): _ = loopStart!.soundReady(serial: s)
            case .demuxEnded(let s, let error): loopStart!.demuxerEnded(serial: s, error: error)
            case .frameShown, .decoded, .decoderEnded, .deinterlacing, .subtitlesRead: return
            }
        default: break
        }
    }

    private func loopStartLoaded(_ loaded: MediaLoader.Loaded) {
        guard let generation = loopStart?.generation, let request = loopStart?.preroll?.request, let playing = session else {
            loaded.input.close()
            return
        }
        loopStart!.finishLoading()
        // It borrows the output only when it takes over, like a gapless follower.
        let session = makeSession(loaded, generation: generation, configuration: configuration,
                                  lendsOutput: !playing.hasAudio)
        loopStart!.attach(session)
        session.start(initial: request)
    }

    /// Chains the start's sound behind the current sound cut at `end`, once the start is
    /// landed and the device has not read up to the end yet.
    private func chainLoopIfReady(end: Double) {
        guard loopStart?.chained == false, loopStart?.isReady == true, let start = loop.span?.start,
              let incoming = loopStart?.session, let fifo = incoming.fifo, let output = incoming.output, output.canChain,
              let playing = session?.fifo, output.isReading(playing),
              let reading = playing.peekPts(), reading < end else { return }
        fifo.discard(before: start)
        playing.cut(at: end)
        loopStart!.chained = output.chain(fifo, startingAt: start)
        if loopStart?.chained != true { playing.cut(at: nil) }
    }

    /// Undoes the chain (and the cut): the current item plays on past the end as if no loop
    /// had been prepared; the prepared start stays for the next time.
    func unchainLoop() {
        guard loopStart?.chained == true else { return }
        loopStart?.session?.output?.unchain()
        session?.fifo?.cut(at: nil)
        loopStart!.chained = false
    }

    func dropLoopStart() {
        unchainLoop()
        guard var slot = loopStart.take() else { return }
        slot.close()
    }

    /// The prepared start takes the screen and the sound: the item plays on from the start,
    /// told to the host as a seek that landed there.
    private func loopBack() {
        guard let incoming = loopStart?.session, current.session != nil, let start = loop.span?.start else { return }
        let continues = loopStart?.chained == true
        // The subtitle files and streams read for the item opened are still this item's.
        if loopOrigin == nil { loopOrigin = current.generation }
        // As in the gapless hand-over: the incoming session borrows the output before the
        // current one goes, so a chained sound plays on.
        if let fifo = incoming.fifo { incoming.output?.adopt(fifo, clock: incoming.clock) }
        current.close()
        current = loopStart.take()!
        current.takeOver()
        current.durationAnnounced = true
        current.firstFrameReported = true
        seeks.reset()
        incoming.clock.follow(incoming.output)
        _ = incoming.presentation?.land()
        if !continues { incoming.fifo?.discard(before: start) }
        incoming.clock.set(start)
        incoming.clock.setAudioDelay(tracks.state.snapshot.withLock { $0.audioDelay })
        snapshot.withLock {
            $0.session = incoming
            $0.loopJumps.seamless += 1
        }
        sessionPublished.signal()
        startClock()
        // Back inside: armed for the next end at once.
        _ = loop.look(at: start, playing: true)
        emit(.displayInvalidated)
        emit(.seekCompleted(position: start))
        emitTime()
    }
}
