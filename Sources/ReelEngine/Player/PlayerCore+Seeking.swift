import Foundation

/// The paused seeks that need no demuxer seek: landing on a picture already decoded (the
/// shown past and the queued future), handing the decoder a new target ahead of it, and back
/// steps from the past (or a seek that fills the past when it runs out).
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {

    /// Serves an exact seek without moving the demuxer when that is possible and cheaper;
    /// false when a normal seek has to be made. Paused only: the sound is left where it was
    /// and brought back by the exact seek that the next play makes (`audioStale`).
    /// `fillsPast`: decoding on keeps every picture on its way (no skipping), so that moving
    /// back again (a drag that turns) lands on decoded pictures.
    func landWithinReach(_ target: Double, fillsPast: Bool = false) -> Bool {
        guard let session, preroll == nil, state == .ready, session.hasVideo else { return false }
        let t = clampTarget(target)
        var request = SeekRequest(serial: serial + 1, target: t, mode: .exact, movesDemuxer: true)
        request.fillsPast = fillsPast
        switch session.seekWithinReach(request) {
        case .miss:
            return false
        case .landed:
            pendingSteps = 0
            landedFromPast(at: t)
            return true
        case .retargeted:
            serial += 1
            pendingSteps = 0
            starvedSince = nil
            audioStale = session.hasAudio
            preroll = Preroll(request: request, isInitial: false, videoOnly: true)
            return true
        }
    }

    /// A picture already decoded is on screen now, for position `t`.
    private func landedFromPast(at t: Double) {
        guard let session else { return }
        session.clock.set(t)
        audioStale = session.hasAudio
        emit(.displayInvalidated)
        emit(.seekCompleted(position: t))
        emitTime()
    }

    /// Back steps asked for while nothing is landing: each from the past while it lasts; when
    /// it runs out, one seek to the previous picture that keeps everything decoded on its way
    /// (the rest of the steps wait for its landing).
    func performPendingBackSteps() {
        while pendingBackSteps > 0 && preroll == nil {
            guard let session, let presentation = session.presentation,
                  let current = presentation.currentFrame else { pendingBackSteps = 0; return }
            if state == .ended { guard transition(.seek) else { pendingBackSteps = 0; return } }
            guard state == .ready else { pendingBackSteps = 0; return }
            pendingBackSteps -= 1
            if let frame = presentation.stepBack() {
                pendingSteps = 0
                landedFromPast(at: frame.pts)
                continue
            }
            let frameDuration = current.duration > 0 ? current.duration : 1.0 / 30
            guard current.pts > 0 else { pendingBackSteps = 0; return }
            beginSeek(to: max(0, current.pts - frameDuration / 2), mode: .exact, fillsPast: true)
        }
    }
}
