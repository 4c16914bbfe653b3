import Foundation

/// The control loop's side of seeking: it checks what the state allows, pauses where a step or
/// a drag needs it, asks the seek coordinator, and carries out the actions it returns on the
/// current item's session.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {
    /// What the seek coordinator is told of the player as it stands now.
    var seekContext: SeekContext {
        let session = current.session
        return SeekContext(
            state: state, hasSession: session != nil, hasVideo: session?.hasVideo ?? false,
            hasAudio: session?.hasAudio ?? false, landing: current.preroll != nil,
            duration: (session?.info ?? snapshot.current.info)?.duration,
            leaveEnd: { [unowned self] in transition(.seek) })
    }

    func seek(to target: Double, mode: SeekMode) {
        carryOut(seeks.seek(to: target, mode: mode, in: seekContext, picture: session?.decodedPictures))
    }

    func endScrub(at target: Double) {
        carryOut(seeks.endScrub(at: target, in: seekContext, picture: session?.decodedPictures))
    }

    func scrub(to target: Double) {
        guard target.isFinite else { return }
        if state == .playing || state == .stalled { pause() }
        var pictures = session?.decodedPictures
        pictures?.prefetched = prefetchedPicture
        carryOut(seeks.scrub(to: target, in: seekContext, picture: pictures))
    }

    func stepForward() {
        seeks.endDrag()
        guard state.hasMedia, state != .ended, session?.hasVideo == true else { return }
        if state == .playing || state == .stalled { pause() }
        guard state == .ready else { return }
        carryOut(seeks.stepForward(in: seekContext, picture: session?.decodedPictures))
    }

    func stepBackward() {
        seeks.endDrag()
        guard state.hasMedia, session?.presentation != nil else { return }
        if state == .playing || state == .stalled { pause() }
        guard state == .ready || state == .ended else { return }
        carryOut(seeks.stepBackward(in: seekContext, picture: session?.decodedPictures))
    }

    /// A seek the player makes itself (see `SeekCoordinator.reseek`).
    func reseek(to target: Double, mode: SeekMode, audioSwitch: AudioSwitch? = nil) {
        carryOut(seeks.reseek(to: target, mode: mode, audioSwitch: audioSwitch, in: seekContext, picture: session?.decodedPictures))
    }

    /// The one place where what the seek coordinator decided is done to the session.
    func carryOut(_ actions: [SeekAction]) {
        for action in actions {
            guard let session else { return }
            switch action {
            case .seek(let request):
                current.demuxerMoved(serial: request.serial)
                session.clock.follow(session.output)
                // A seek during the first landing replaces it, and still ends the loading.
                current.beginLanding(request)
                if request.audioSwitch != nil { session.switchAudio(request) } else { session.seek(request) }
                showPrefetched(for: request, in: session)
            case .retry(let request):
                // The demuxer's end and the starving watch stay as the first try left them.
                current.demuxerRetried(serial: request.serial)
                session.clock.follow(session.output)
                current.beginLanding(request)
                session.seek(request)
            case .retarget(let request), .showDecoded(let request):
                // Served from what is decoded at this moment: the decoder may have moved on
                // since the decision.
                let retargets = action.startsLanding
                switch session.serve(request, retargets: retargets) {
                case .retargeted:
                    current.beginLanding(request, soundToo: false)
                    showPrefetched(for: request, in: session)
                case .landed:
                    showMoved(to: request.target, session: session)
                case .miss:
                    carryOut(seeks.notWithinReach(request, in: seekContext))
                }
            case .stepForward:
                guard let frame = session.presentation?.step() else { continue }
                if let fifo = session.fifo {
                    session.output?.flush()
                    if !fifo.rewind(to: frame.pts) { fifo.discard(before: frame.pts) }
                }
                showMoved(to: frame.pts, session: session)
            case .stepBack:
                guard let frame = session.presentation?.stepBack() else { continue }
                showMoved(to: frame.pts, session: session)
            case .scrub(let target):
                scrub(to: target)
            }
        }
    }

    /// The picture on screen moved without a landing (paused): the clock goes with it.
    private func showMoved(to position: Double, session: Session) {
        session.clock.set(position)
        emit(.displayInvalidated)
        emit(.seekCompleted(position: position))
        emitTime()
    }
}
