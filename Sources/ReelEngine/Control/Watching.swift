import Foundation

/// The watching half of the control loop: between messages it completes landings (a seek's
/// or the opening's first frame and sound are ready), notices the end of the media and stalls,
/// and fires the periodic time observer.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {

    func watch() {
        if current.preroll != nil { checkPreroll() }
        carryOut(seeks.picturesMayHaveArrived(in: seekContext, picture: session))
        if state == .playing && current.preroll == nil { watchPlayback() }
        if state == .playing && current.preroll == nil { watchUpNext() }
        if state == .stalled && current.preroll == nil { watchStall() }
        if state == .playing, observer.isDue {
            emitTime()
            observer.restart()
        }
    }

    func checkPreroll() {
        guard let p = current.preroll, let session else { return }
        let videoDone = !session.hasVideo || p.videoArrived
        // Audio gets a second to fill; after that, the picture does not wait for it.
        let audioDone = !session.hasAudio || p.audioReady || p.videoOnly
            || (videoDone && HostTime.now.seconds(since: p.started) > 1.0)
        guard videoDone && audioDone else { return }
        completePreroll(p, session: session)
    }

    private func completePreroll(_ p: Preroll, session: Session) {
        current.preroll = nil
        let landed = session.presentation?.land()
        let videoPts = (landed != nil && landed!.serial == p.request.serial) ? landed!.pts : nil
        let audioPts = session.fifo?.peekPts()
        if p.isInitial && videoPts == nil && audioPts == nil {
            // Nothing decoded at all.
            let error = current.demuxEnded?.error
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
        if !p.videoOnly { session.fifo?.discard(before: start) }
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
        carryOut(seeks.landed(in: seekContext, picture: self.session))
    }

    private func watchPlayback() {
        guard let session else { return }
        if let follower = next, follower.chained, session.output?.seamHeard == true {
            advanceToNext()
            return
        }
        let now = session.clock.time()
        let videoDone = session.presentation?.finished(at: now) ?? true
        var audioDone = true
        if session.hasAudio, !current.audioDetached {
            audioDone = session.output?.hasPlayedEverything ?? true
            if audioDone {
                // Audio is over but pictures remain: the monotonic clock carries on from here.
                current.audioDetached = true
                session.clock.follow(nil)
            }
        }
        if videoDone && audioDone {
            if let error = current.demuxEnded?.error {
                fail(error)
                return
            }
            if next?.isReady == true {
                advanceToNext()
                return
            }
            if transition(.reachEnd, apply: stopClock) {
                emit(.playedToEnd)
                emitTime()
            }
            return
        }
        // Waiting for data: queues empty although the demuxer has not reached the end.
        let audioStarved = session.hasAudio && !current.audioDetached && session.fifo!.unreadSeconds == 0
            && !session.fifo!.reachedEnd && session.audioPacketsEmpty
        let videoStarved = (session.presentation?.starving(at: now) ?? false) && session.videoPacketsEmpty
        if !current.demuxDone && (audioStarved || videoStarved) {
            if current.starvedSince == nil { current.starvedSince = .now }
            if HostTime.now.seconds(since: current.starvedSince!) > 0.25, transition(.stall, apply: stopClock) {
                emitTime()
            }
        } else {
            current.starvedSince = nil
        }
    }

    private func watchStall() {
        guard let session else { return }
        let audioOK = !session.hasAudio || current.audioDetached || session.fifo!.unreadSeconds >= 0.5
            || session.fifo!.reachedEnd
        let videoOK = !session.hasVideo || (session.frameQueue!.count >= 3) || session.frameQueue!.reachedEnd
        if current.demuxDone || (audioOK && videoOK) {
            current.starvedSince = nil
            transition(.unstall, apply: startClock)
        }
    }
}
