import Foundation

/// Opening media: the loader thread, then the session, then its first landing; and publishing
/// a session's media to other threads and to the host (for an opening and a gapless hand-over).
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {
    func open(_ source: MediaSource) {
        // Reopening the same media (another audio stream) keeps what follows it.
        if session?.requested != source { upNext = nil }
        teardown()
        current = MediaSlot(generation: newGeneration(), source: source)
        guard transition(.open) else { return }
        wantsPlay = false
        seeks.reset()
        configuration.audioStream = tracks.pendingAudioStream
        configuration.audioLanguages = tracks.preferredAudioLanguages
        tracks.pendingAudioStream = nil
        configuration.externalAudio = tracks.pendingExternalAudio
        tracks.pendingExternalAudio = nil
        configuration.webPages.format = tracks.pendingWebFormat
        tracks.pendingWebFormat = nil
        current.loader = startLoading(source, generation: current.generation, configuration: configuration,
                                      announcesDuration: true)
    }

    /// Opens `source` on a loader thread; what it finds is posted under `generation`.
    func startLoading(_ source: MediaSource, generation gen: Int, configuration: PlayerConfiguration,
                      announcesDuration: Bool) -> MediaLoader {
        let loader = MediaLoader()
        let mailbox = self.mailbox
        loader.start(source: source, configuration: configuration, durationKnown: { duration in
            if announcesDuration { mailbox.post(.durationKnown(duration, generation: gen)) }
        }, cacheEvent: { mailbox.post(.cache($0, generation: gen)) }) { result in
            switch result {
            case .success(let loaded): mailbox.post(.loaded(loaded, generation: gen))
            case .failure(let error): mailbox.post(.loadFailed(error, generation: gen))
            }
        }
        return loader
    }

    /// A session for `loaded` whose reports are posted under `generation`.
    /// `lendsOutput` false: a follower prepared while the current session borrows the output.
    func makeSession(_ loaded: MediaLoader.Loaded, generation gen: Int, configuration: PlayerConfiguration,
                     lendsOutput: Bool = true) -> Session {
        let mailbox = self.mailbox
        let session = Session(loaded: loaded, configuration: configuration, device: soundDevice,
                              lendsOutput: lendsOutput) { report in
            mailbox.post(.session(report, generation: gen))
        }
        session.presentation?.reportsEveryFrame = observer.everyFrame
        session.setSpeed(sound.speed)
        session.setLevelling(sound.levelling)
        return session
    }

    func didLoad(_ loaded: MediaLoader.Loaded) {
        current.finishLoading()
        let session = makeSession(loaded, generation: current.generation, configuration: configuration)
        current.attach(session)
        publish(session, warnings: loaded.warnings)
        let request = seeks.openingRequest(duration: session.info.duration)
        current.demuxerMoved(serial: request.serial)
        current.beginLanding(request, isInitial: true)
        session.start(initial: request)
    }

    /// Makes the current session's media the one other threads read and the host hears of: its
    /// duration (unless already announced), what was probed, its warnings; its subtitles start and
    /// the volume applies to its output. For an opening and for a gapless hand-over alike.
    func publish(_ session: Session, warnings: [PlayerWarning]) {
        let info = session.info
        snapshot.withLock {
            $0.session = session
            $0.info = info
            $0.duration = info.duration
        }
        sessionPublished.signal()
        if let duration = info.duration, !current.durationAnnounced {
            current.durationAnnounced = true
            emit(.durationKnown(duration))
        }
        emit(.mediaLoaded(info))
        startSubtitles(for: info, source: session.input.source)
        for warning in warnings { emit(.warning(warning)) }
        if let warning = session.audioWarning, !sound.warnedNoSound {
            sound.warnedNoSound = true
            emit(.warning(warning))
        }
        applyVolume()
    }
}
