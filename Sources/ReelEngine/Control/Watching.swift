import Foundation

/// The watching half of the control loop: after every message it completes landings (a seek's
/// or the opening's first frame and sound are ready), serves steps waiting for a picture,
/// notices the end of the media and stalls, prepares the next item, and fires the periodic time
/// observer. Each says when it next needs to look, and the loop sleeps until the earliest or
/// the next message (mpv's play loop). What waits for another thread (a picture, sound, the end
/// of decoding, queues filling) is woken by that thread's report; what waits for the clock to
/// reach a media time (the end, the observer's tick, the moment a queue could run dry) asks the
/// clock when that will be.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {
    /// How long the picture of a landing waits for its sound before it is shown without it.
    static let soundWaitLimit = 1.0
    /// How long the queues stay empty, with the demuxer still reading, before playback stalls.
    static let starvingBeforeStall = 0.25
    /// Where a condition is due but not there yet (the device's report lags the clock's line by
    /// a moment; freewheeling, the media time follows decoding, not time): looked at again this
    /// soon, as often as the loop used to look at everything.
    static let lookAgainSoon = 0.01

    /// Looks at everything watched; returns when to look again (nil: only a message can change
    /// anything, as while paused).
    func watch() -> HostTime? {
        var wake = NextWake()
        if current.preroll != nil { wake.at(checkPreroll()) }
        watchSteps()
        if state == .playing && current.preroll == nil { wake.at(watchLoop()) }
        if state == .playing && current.preroll == nil { wake.at(watchPlayback()) }
        if state == .playing && current.preroll == nil { wake.at(watchUpNext()) }
        if state == .stalled && current.preroll == nil { watchStall() }
        if state == .playing {
            if observer.isDue {
                emitTime()
                observer.restart()
            }
            wake.at(observer.nextEvent)
        }
        return wake.earliest
    }

    /// When the clock reaches media time `pts` (nil: never on its own, the clock is frozen).
    func lookAgain(whenClockReaches pts: Double?) -> HostTime? {
        guard let pts, let clock = session?.clock else { return nil }
        return lookAgain(at: clock.pacing.ownTime != nil ? .now : clock.hostTime(reaching: pts))
    }

    /// When the sound at media time `pts` is heard.
    func lookAgain(whenHearing pts: Double?) -> HostTime? {
        guard let pts, let clock = session?.clock else { return nil }
        return lookAgain(at: clock.pacing.ownTime != nil ? .now : clock.hostTime(hearing: pts))
    }

    private func lookAgain(at time: HostTime?) -> HostTime? {
        guard let time else { return nil }
        let now = HostTime.now
        return time > now ? time : now.adding(seconds: Self.lookAgainSoon)
    }

    /// Completes the landing once its picture and sound are in (their reports call this too);
    /// returns when the picture stops waiting for the sound.
    @discardableResult
    func checkPreroll() -> HostTime? {
        guard let p = current.preroll, let session else { return nil }
        let videoDone = current.pictureDone
        let soundWaitEnds = p.started.adding(seconds: Self.soundWaitLimit)
        let audioDone = current.soundDone || (videoDone && HostTime.now >= soundWaitEnds)
        guard videoDone && audioDone else { return videoDone ? soundWaitEnds : nil }
        completePreroll(p, session: session)
        return nil
    }

    /// Steps waiting for a decoded picture take it; the decoder reports the next one it
    /// queues (asked before looking, so one queued meanwhile is not missed).
    private func watchSteps() {
        guard seeks.pendingSteps > 0 && current.preroll == nil, let session else { return }
        session.reportNextDecode()
        carryOut(seeks.picturesMayHaveArrived(in: seekContext, picture: session.decodedPictures))
    }

    private func completePreroll(_ p: Preroll, session: Session) {
        // A retarget leaves the sound where it was: it is not part of the landing.
        let soundLands = current.audio == .syncing || current.audio.isReady
        current.landed()
        let landed = session.presentation?.land()
        let videoPts = (landed != nil && landed!.serial == p.request.serial) ? landed!.pts : nil
        let audioPts = session.fifo?.peekPts()
        if p.isInitial && videoPts == nil && audioPts == nil {
            // Nothing decoded at all.
            let error = current.demuxError
            fail(error ?? .corruptData("nothing in \(session.info.sourceName) could be decoded"))
            return
        }
        let start: Double
        if !p.request.movesDemuxer {
            // Opening at the beginning: from the earliest sound or picture.
            start = [videoPts, audioPts].compactMap { $0 }.min() ?? p.request.target
        } else if p.request.mode == .exact && !p.request.fillsPast {
            start = p.request.target
        } else {
            start = videoPts ?? audioPts ?? p.request.target
        }
        if soundLands { session.fifo?.discard(before: start) }
        session.clock.set(start)
        if p.isInitial {
            transition(.loaded)
            let autoplay = hooks.shouldStart?(session.info) ?? configuration.autoplay
            if wantsPlay || autoplay {
                wantsPlay = false
                transition(.play, apply: startClock)
            }
        } else {
            if state == .playing { startClock() }
            emit(.displayInvalidated)
            emit(.seekCompleted(position: start))
        }
        if p.isInitial { emit(.displayInvalidated) }
        emitTime()
        carryOut(seeks.landed(in: seekContext, picture: self.session?.decodedPictures))
    }

    /// The end of the media (or the gapless seam) and stalls while playing.
    private func watchPlayback() -> HostTime? {
        guard let session else { return nil }
        var wake = NextWake()
        if next?.chained == true {
            if session.output?.seamHeard == true {
                advanceToNext()
                return nil
            }
            // The seam is heard with the current item's last sound.
            wake.at(lookAgain(whenHearing: session.fifo?.endPts))
        }
        let now = session.clock.time()
        let videoDone = session.presentation?.finished(at: now) ?? true
        if !videoDone, session.frameQueue?.reachedEnd == true {
            wake.at(lookAgain(whenClockReaches: session.presentation?.decodedUntil.map { $0 - 0.001 }))
        }
        var audioDone = true
        if session.hasAudio, current.audio != .ended {
            audioDone = session.output?.hasPlayedEverything ?? true
            if audioDone {
                // Audio is over but pictures remain: the monotonic clock carries on from here.
                current.soundEnded()
                session.clock.follow(nil)
            } else {
                // Before the decoder's end (which it reports), there is no end to wait for.
                wake.at(lookAgain(whenHearing: session.fifo?.endPts))
            }
        }
        if videoDone && audioDone {
            if let error = EndVerdict.error(demuxError: current.demuxError, downloadFailure: current.downloadFailure,
                                            position: now, duration: session.info.duration) {
                fail(error)
                return nil
            }
            if next?.isReady == true {
                advanceToNext()
                return nil
            }
            if transition(.reachEnd, apply: stopClock) {
                emit(.playedToEnd)
                emitTime()
            }
            return nil
        }
        guard !current.demuxDone else {
            current.stopStarving()
            return wake.earliest
        }
        wake.at(watchStarving(session, at: now))
        return wake.earliest
    }

    /// Waiting for data: queues empty although the demuxer has not reached the end, for a
    /// quarter second, is a stall. Returns when to look again: when the stall would begin, or
    /// the earliest moment the pictures or the sound decoded so far could run out.
    private func watchStarving(_ session: Session, at now: Double) -> HostTime? {
        let audioWatched = session.hasAudio && current.audio != .ended && !session.fifo!.reachedEnd
        let audioDry = audioWatched && session.fifo!.unreadSeconds == 0
        let videoDry = session.presentation?.starving(at: now) ?? false
        let audioStarved = audioDry && session.audioPacketsEmpty
        let videoStarved = videoDry && session.videoPacketsEmpty
        if let since = current.starving(video: videoStarved, audio: audioStarved) {
            let stallsAt = since.adding(seconds: Self.starvingBeforeStall)
            guard HostTime.now >= stallsAt else { return stallsAt }
            if transition(.stall, apply: stopClock) { emitTime() }
            return nil
        }
        var wake = NextWake()
        if audioDry || videoDry {
            // Dry with packets still to decode: the decoder is behind. Its next picture or sound
            // changes the picture; so may its taking the last packet, which nothing reports.
            session.reportNextDecode()
            wake.at(HostTime.now.adding(seconds: Self.lookAgainSoon))
        }
        // Pictures run out a little after the last one decoded ends; the sound device takes
        // the FIFO's last samples some time before they are heard (its own buffer, a fraction
        // of `soundLead`).
        wake.at(lookAgain(whenClockReaches: session.presentation?.decodedUntil.map { $0 + 0.05 }))
        if audioWatched { wake.at(lookAgain(whenClockReaches: session.fifo!.bufferedEndPts.map { $0 - Self.soundLead })) }
        return wake.earliest
    }

    /// How far ahead of the clock the sound device may take samples from the FIFO, at most
    /// (PulseAudio's buffer is about an eighth of a second here).
    static let soundLead = 0.5

    /// While stalled: playback goes on once the queues hold enough again (or the demuxer is
    /// done); each picture or sound decoded is reported until then.
    private func watchStall() {
        guard let session else { return }
        session.reportNextDecode()
        let audioOK = !session.hasAudio || current.audio == .ended || session.fifo!.unreadSeconds >= 0.5
            || session.fifo!.reachedEnd
        let videoOK = !session.hasVideo || (session.frameQueue!.count >= 3) || session.frameQueue!.reachedEnd
        if current.demuxDone || (audioOK && videoOK) {
            current.stopStarving()
            transition(.unstall, apply: startClock)
        }
    }
}
