import ReelEngine

/// The reducer: each of the player's events, and each request of the view that the player
/// answers later, becomes the model's new state and, where it was one, a moment; observers are
/// told once per step, after the state is whole.
/// Threading: main thread only.
extension PlayerModel {
    /// Takes in one event of the player.
    public func apply(_ event: PlayerEvent) {
        let before = (state: state, duration: timeline.duration)
        var aspects: Aspects = []
        let moment = reduce(event, into: &aspects)
        if timeline.duration != before.duration { aspects.formUnion([.timeline, .duration]) }
        guard !aspects.isEmpty || moment != nil else { return }
        var change = Change(aspects: aspects, moment: moment, previousState: before.state)
        switch event {
        case .time, .seekCompleted: change.reportsPosition = true
        default: break
        }
        tell(change)
    }

    /// The view asked the player to open something: what belonged to the media before goes,
    /// and the name is known at once (the player says the rest as it learns it).
    public func opening(_ name: String, source: MediaSource?) {
        let before = state
        clearMedia()
        sourceName = name
        self.source = source
        tell(Change(aspects: [.media, .timeline, .duration, .subtitles, .buffered, .breakTime, .warnings], moment: nil,
                    previousState: before))
    }

    /// The view asked for a seek to `target`: relative seeks step on from it until it lands,
    /// and whoever shows the time hears of it at once (the seek billboard).
    public func seekRequested(to target: Double) {
        timeline.seekTarget = target
        tell(Change(aspects: .timeline, moment: .seekRequested(target: target), previousState: state))
    }

    /// A scan (rewind or fast forward held) started: the pause it makes is not the person's
    /// (the controls do not come up for it).
    public func scanStarted() {
        timeline.scanEndsWithState = false
        guard !timeline.isScanning else { return }
        timeline.isScanning = true
        tell(Change(aspects: .timeline, moment: nil, previousState: state))
    }

    /// The scan ended. `resuming`: play resumes where it got to, and the scan lasts until the
    /// player says so (its next change of state), so that the moment between is not a pause.
    public func scanEnded(resuming: Bool) {
        guard timeline.isScanning else { return }
        if resuming {
            timeline.scanEndsWithState = true
            return
        }
        timeline.isScanning = false
        tell(Change(aspects: .timeline, moment: nil, previousState: state))
    }

    private func reduce(_ event: PlayerEvent, into aspects: inout Aspects) -> PlayerMoment? {
        switch event {
        case .stateChanged(_, let to):
            guard to != state else { return nil }
            state = to
            aspects.insert(.state)
            if timeline.scanEndsWithState {
                timeline.isScanning = false
                timeline.scanEndsWithState = false
                aspects.insert(.timeline)
            }
            if to != .ended, timeline.playedThrough {
                timeline.playedThrough = false
                aspects.insert(.timeline)
            }
            if to == .idle || to == .closed {
                clearMedia()
                sourceName = nil
                source = nil
                aspects.formUnion([.media, .timeline, .subtitles, .buffered, .breakTime, .warnings])
            }
            // Carried on from here while playing, not from the last report.
            timeline.reportedAt = Clock.now
            return nil
        case .transitionVetoed(let from, let to):
            return .vetoed(from: from, to: to)
        case .durationKnown(let known):
            guard known != timeline.duration else { return nil }
            timeline.duration = known
            aspects.insert(.timeline)
            return nil
        case .mediaLoaded(let info):
            mediaInfo = info
            if let known = info.duration { timeline.duration = known }
            aspects.formUnion([.media, .timeline])
            return .loaded(info)
        case .audioStreamChanged(let info):
            mediaInfo = info
            aspects.insert(.media)
            return .audioStreamChanged
        case .firstFrameShown:
            if !pictureShown {
                pictureShown = true
                aspects.insert(.media)
            }
            return .firstPictureShown
        case .frameShown(let report):
            return .frameShown(report)
        case .time(let now, let known):
            guard breakTime == nil else { return nil }
            let before = timeline
            timeline.position = now
            timeline.reportedAt = Clock.now
            if let known { timeline.duration = known }
            if timeline != before { aspects.insert(.timeline) }
            return nil
        case .seekCompleted(let now):
            timeline.position = now
            timeline.reportedAt = Clock.now
            timeline.playedThrough = false
            timeline.seekTarget = nil
            aspects.insert(.timeline)
            return .landed(position: now)
        case .displayInvalidated:
            return .pictureChanged
        case .pictureDecodedAhead(let time):
            return .pictureDecodedAhead(at: time)
        case .playedToEnd:
            timeline.playedThrough = true
            timeline.seekTarget = nil
            aspects.insert(.timeline)
            return .playedToEnd
        case .nextItemStarted(let next):
            // The next item took over: what belonged to the one before goes (what probing
            // found stays until the new item's comes, a moment later: the picture goes on,
            // so it is still shown).
            let info = mediaInfo, shown = pictureShown
            clearMedia()
            mediaInfo = info
            pictureShown = shown
            source = next
            sourceName = next.displayName
            timeline.reportedAt = Clock.now
            aspects.formUnion([.media, .timeline, .subtitles, .buffered, .warnings])
            return .nextItemStarted(next)
        case .volumeChanged(let level, let muted):
            guard level != sound.volume || muted != sound.isMuted else { return nil }
            sound.volume = level
            sound.isMuted = muted
            aspects.insert(.sound)
            return nil
        case .levellingChanged(let on):
            guard on != sound.isLevelling else { return nil }
            sound.isLevelling = on
            aspects.insert(.sound)
            return nil
        case .deinterlacingChanged(let status):
            guard status != deinterlacing else { return nil }
            deinterlacing = status
            aspects.insert(.picture)
            return nil
        case .loopChanged(let span):
            guard span != loop else { return nil }
            loop = span
            aspects.insert(.loop)
            return nil
        case .speedChanged(let rate):
            guard rate != speed else { return nil }
            speed = rate
            aspects.insert(.speed)
            return nil
        case .warning(let warning):
            warnings.append(warning)
            aspects.insert(.warnings)
            return .warning(warning)
        case .subtitleTracksChanged(let tracks):
            subtitles.tracks = tracks
            aspects.insert(.subtitles)
            return nil
        case .subtitleChanged(_, let to):
            subtitles.selected = to
            aspects.insert(.subtitles)
            return .subtitleChosen(to)
        case .subtitleDelayChanged(let delay):
            subtitles.delay = delay
            aspects.insert(.subtitles)
            return .subtitleDelayChanged(delay)
        case .audioDelayChanged(let delay):
            sound.delay = delay
            aspects.insert(.sound)
            return .audioDelayChanged(delay)
        case .subtitleFileFailed(let path, let error):
            return .subtitleFileFailed(path: path, error: error)
        case .downloadProgress(let progress):
            buffered = progress
            aspects.insert(.buffered)
            return nil
        case .downloadFinished(let path):
            return .downloadFinished(path: path)
        case .downloadFailed(let error):
            return .downloadFailed(error)
        case .reconnecting(let attempt, let reason):
            return .reconnecting(attempt: attempt, reason: reason)
        case .interstitialStarted(let report):
            breakTime = BreakTime()
            aspects.insert(.breakTime)
            return .breakStarted(report)
        case .interstitialProgress(let now, let length):
            guard breakTime != nil else { return nil }
            breakTime = BreakTime(position: now, duration: length)
            aspects.insert(.breakTime)
            return nil
        case .interstitialEnded(let report, let error):
            breakTime = nil
            aspects.insert(.breakTime)
            return .breakEnded(report, error: error)
        }
    }

    /// What belongs to one item of media goes (its name and source are the caller's).
    private func clearMedia() {
        mediaInfo = nil
        pictureShown = false
        timeline = Timeline(reportedAt: Clock.now)
        subtitles.tracks = []
        subtitles.selected = nil
        buffered = nil
        breakTime = nil
        warnings = []
        deinterlacing = nil
    }
}
