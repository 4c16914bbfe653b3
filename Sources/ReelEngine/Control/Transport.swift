import Foundation

/// Play, pause, volume and speed: what moves the clock and the sound device of the item playing.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {
    func play() {
        switch state {
        case .loading:
            wantsPlay = true
        case .ready where current.preroll == nil && isAtEnd:
            // Paused on the last picture (a seek to the end, a step off the last frame): play
            // means "again" from the start, not "end at once".
            guard transition(.play) else { return }
            reseek(to: 0, mode: .keyframe)
        case .ready where seeks.audioStale && session?.hasAudio == true:
            // The picture moved alone while paused: an exact seek to it brings the sound.
            let here = session!.clock.time()
            guard transition(.play) else { return }
            reseek(to: here, mode: .exact)
        case .ready:
            guard transition(.play, apply: { if current.preroll == nil { startClock() } }) else { return }
            emitTime()
        case .ended:
            guard transition(.play) else { return }
            reseek(to: 0, mode: .keyframe)
        default:
            break
        }
    }

    /// Everything has been shown and heard: the next play would end at once.
    private var isAtEnd: Bool {
        guard let session else { return false }
        let now = session.clock.time()
        let videoDone = session.presentation?.finished(at: now) ?? true
        // A few milliseconds of sound often outlast the last picture (codec frame padding).
        let audioDone = !session.hasAudio || (session.fifo!.reachedEnd && session.fifo!.unreadSeconds < 0.1)
        if videoDone && audioDone && (session.hasVideo || session.hasAudio) { return true }
        // Right after a seek to the end the decoders may not have met the end of the stream yet.
        if let duration = session.info.duration, duration > 0 { return now >= duration - 0.0005 }
        return false
    }

    func pause() {
        switch state {
        case .loading:
            wantsPlay = false
        case .playing, .stalled:
            guard transition(.pause, apply: stopClock) else { return }
            emitTime()
        default:
            break
        }
    }

    func setVolume(_ value: Double) {
        sound.volume = max(0, min(1, value))
        applyVolume()
    }

    func setMuted(_ muted: Bool) {
        sound.muted = muted
        applyVolume()
    }

    func applyVolume() {
        let (volume, muted) = (sound.volume, sound.muted)
        session?.output?.setVolume(volume, muted: muted)
        snapshot.withLock { $0.volume = volume; $0.muted = muted }
        emit(.volumeChanged(volume: volume, muted: muted))
    }

    /// The sound for the new speed is made by the audio decoder (a tempo filter), so what is
    /// already decoded at the old speed is replaced: an exact seek to the picture on screen,
    /// which keeps the position to the frame and brings sound and picture back together.
    func setSpeed(_ requested: Double) {
        guard requested.isFinite else { return }
        let value = min(max(requested, speedRange.lowerBound), speedRange.upperBound)
        guard value != sound.speed else { return }
        sound.speed = value
        snapshot.withLock { $0.speed = value }
        emit(.speedChanged(value))
        guard let session else { return }
        session.setSpeed(value)
        guard session.hasAudio, state.hasMedia, state != .ended else { return }
        // During a landing its target is where the picture will be; the new seek replaces it.
        let landing = current.preroll?.request
        let here = landing?.target ?? session.presentation?.currentFrame?.pts ?? session.clock.time()
        reseek(to: here, mode: landing?.mode ?? .exact)
    }

    /// Pictures of the new mode replace those decoded in the old one: an exact seek to where
    /// playback is (as a speed change does), so pause holds and the position stays. It
    /// is never served from the pictures decoded (they are of the old mode): the decoder has
    /// to flush to take the mode up.
    func setDeinterlace(_ mode: DeinterlaceMode) {
        guard mode != configuration.deinterlace else { return }
        configuration.deinterlace = mode
        // Its pictures were made the old way (fields or frames).
        closePrefetch()
        guard let session else { return }
        session.setDeinterlace(mode)
        guard session.hasVideo, state.hasMedia, state != .ended else { return }
        let landing = current.preroll?.request
        // The position, not the picture's start: off and on again comes back to the same field.
        let here = landing?.target ?? session.clock.time()
        carryOut(seeks.reseek(to: here, mode: landing?.mode ?? .exact, in: seekContext, picture: nil))
    }

    func startClock() {
        guard let session else { return }
        session.setPastLimit(.playing)
        session.clock.run()
        session.clockStarted()
        session.output?.start()
        observer.restart()
    }

    func stopClock() {
        guard let session else { return }
        session.setPastLimit(.paused)
        session.clock.freeze()
        session.output?.pause()
    }

    func emitTime() {
        guard let session else { return }
        emit(.time(position: session.clock.time(), duration: session.info.duration))
    }
}
