import Foundation

/// The player's control thread: it alone owns the state machine and the current session.
/// Commands and engine reports arrive through one mailbox and are handled in order; between
/// messages it watches prerolls, the end of the media, stalls and the time observer.
/// Threading: every `private` member is confined to the control thread; `snapshot` is the
/// locked read-only view other threads use.
final class PlayerCore: @unchecked Sendable {
    /// What other threads may read without asking the control thread.
    struct Snapshot {
        var state: PlayerState = .idle
        var info: MediaInfo?
        var duration: Double?
        var session: Session?
        var volume: Double = 1
        var muted = false
        var speed = 1.0
    }

    let mailbox = Mailbox<ControlMessage>()
    let snapshot = Locked(Snapshot())
    /// Control thread only once running (the audio stream changes it, see PlayerCore+Subtitles).
    var configuration: PlayerConfiguration
    let hooks: PlayerHooks
    let emit: @Sendable (PlayerEvent) -> Void
    private var thread: EngineThread?

    // Control-thread state: internal (not private) only so that the watching half of this type,
    // in PlayerCore+Watching.swift, can reach it; nothing outside the control thread touches it.
    private(set) var state: PlayerState = .idle
    var session: Session?
    var loader: MediaLoader?
    var generation = 0
    /// Every generation ever given out, the follower's included (`newGeneration`).
    var generationCounter = 0
    /// What follows the current item (`Player.setNext`), and its preparation.
    var upNext: (source: MediaSource, audioStream: Int?)?
    var upNextFailed = false
    var prepared: Prepared?
    var serial = 0
    var preroll: Preroll?
    var wantsPlay = false
    var pendingSeek: (target: Double, mode: SeekMode)?
    var pendingSteps = 0
    var pendingBackSteps = 0
    /// The serial of the last request that moved the demuxer (a retarget or a landing from
    /// decoded pictures leaves the demuxer, and its end, as they were).
    var demuxSerial = 0
    var demuxEnded: (serial: Int, error: PlayerError?)?
    /// The picture moved without the sound (a paused seek, step or scrub served from decoded
    /// pictures): the next play seeks exactly to bring the sound back in step.
    var audioStale = false
    /// A scrubber drag's newest position not yet asked for (one landing at a time, so every
    /// landing shows a picture and none is abandoned half-way).
    var pendingScrub: Double?
    var audioDetached = false
    var starvedSince: HostTime?
    var nextTimeEvent = HostTime.now
    var timeInterval: Double
    var observesEveryFrame: Bool
    var firstFrameReported = false
    var durationAnnounced = false
    var warnedNoSound = false
    var volume = 1.0
    var muted = false
    var speed = 1.0
    var running = true
    /// Tags every thread this player starts, so they can be counted (`EngineThread.liveCount`).
    let owner = EngineThread.newOwner()
    /// Tracks, selection, delays and style of the subtitles (PlayerCore+Subtitles.swift).
    let subtitles = SubtitleControl()

    struct Preroll {
        let request: SeekRequest
        let isInitial: Bool
        /// A retarget: only the picture lands; the sound stays where it was (`audioStale`).
        var videoOnly = false
        let started = HostTime.now
        var videoPts: Double?
        var videoArrived = false
        var audioReady = false
    }

    init(configuration: PlayerConfiguration, hooks: PlayerHooks, emit: @escaping @Sendable (PlayerEvent) -> Void) {
        self.configuration = configuration
        self.hooks = hooks
        self.emit = emit
        timeInterval = configuration.timeObserverInterval > 0 ? configuration.timeObserverInterval : 1
        observesEveryFrame = configuration.observesEveryFrame
        thread = EngineThread(name: "reel.control", owner: owner) { [self] in run() }
    }

    /// Stops the control thread after closing the media. Safe to call from the control thread
    /// itself (a host releasing its player in an event handler): the thread is then detached
    /// and ends on its own after this handler returns.
    func shutdown() {
        mailbox.post(.shutdown)
        guard let thread else { return }
        if thread.isCurrent { thread.detach() } else { thread.join() }
    }

    // MARK: - Loop

    private func run() {
        while running {
            let wait = hasTimedWork ? 0.01 : 0.5
            if let message = mailbox.receive(until: Date(timeIntervalSinceNow: wait)) {
                handle(message)
            }
            if running { watch() }
        }
    }

    private var hasTimedWork: Bool {
        preroll != nil || pendingSteps > 0 || state == .playing || state == .stalled
    }

    private func handle(_ message: ControlMessage) {
        if let p = prepared, let gen = message.generation, gen == p.generation {
            switch message {
            case .loaded(let loaded, _): preparedLoaded(loaded)
            case .loadFailed(let error, _): preparedFailed(error)
            case .session(let report, _): handlePrepared(report)
            default: break
            }
            return
        }
        switch message {
        case .command(let command): handle(command)
        case .durationKnown(let duration, let gen):
            guard gen == generation, !durationAnnounced else { return }
            durationAnnounced = true
            snapshot.withLock { $0.duration = duration }
            emit(.durationKnown(duration))
        case .loaded(let loaded, let gen):
            guard gen == generation else { loaded.input.close(); return }
            didLoad(loaded)
        case .loadFailed(let error, let gen):
            guard gen == generation else { return }
            loader?.join(); loader = nil
            fail(error)
        case .session(let report, let gen):
            guard gen == generation else { return }
            handle(report)
        case .subtitles(let report, let gen):
            guard gen == generation else { return }
            handle(report)
        case .cache(let event, let gen):
            if gen == generation { emit(event) }
        case .shutdown:
            teardown()
            running = false
        }
    }

    private func handle(_ command: PlayerCommand) {
        // Anything that moves, stops or replaces the current item undoes a chained follower
        // (it is prepared again while playing on towards the end).
        switch command {
        case .setVolume, .setMuted, .setTimeObserverInterval, .setObservesEveryFrame, .subtitle, .setNext: break
        default: dropPrepared()
        }
        switch command {
        case .setNext(let source, let audioStream): setNext(source, audioStream: audioStream)
        case .open(let source): open(source)
        case .openFailed(let error):
            teardown()
            generation = newGeneration()
            if transition(.open) { fail(error) }
        case .play: play()
        case .pause: pause()
        case .togglePause:
            if state == .playing || state == .stalled || (state == .loading && wantsPlay) { pause() } else { play() }
        case .seek(let target, let mode):
            endDrag()
            seek(to: target, mode: mode)
        case .stepForward:
            endDrag()
            stepForward()
        case .stepBackward:
            endDrag()
            stepBackward()
        case .scrub(let target): scrub(to: target)
        case .endScrub(let target): endScrub(at: target)
        case .close:
            guard state != .closed else { return }
            transition(.close, apply: teardown)
        case .setVolume(let v):
            volume = max(0, min(1, v))
            applyVolume()
        case .setSpeed(let s):
            setSpeed(s)
        case .setMuted(let m):
            muted = m
            applyVolume()
        case .setTimeObserverInterval(let interval):
            timeInterval = interval > 0 ? interval : 1
            nextTimeEvent = HostTime.now.adding(seconds: timeInterval)
        case .setObservesEveryFrame(let on):
            observesEveryFrame = on
            session?.presentation?.reportsEveryFrame = on
        case .subtitle(let command):
            handle(command)
        }
    }

    private func handle(_ report: Session.Report) {
        switch report {
        case .videoArrived(let s, let pts):
            guard var p = preroll, p.request.serial == s else { return }
            if landedTooLate(p.request, pts: pts) {
                retry(p, landedAt: pts.isNaN ? p.request.target : pts)
                return
            }
            p.videoArrived = true
            p.videoPts = pts.isNaN ? nil : pts
            preroll = p
            checkPreroll()
        case .audioReady(let s):
            guard var p = preroll, p.request.serial == s else { return }
            p.audioReady = true
            preroll = p
            checkPreroll()
        case .demuxEnded(let s, let error):
            guard s == demuxSerial else { return }
            demuxEnded = (s, error)
        case .frameShown(let frame, let drift, let first):
            if first && !firstFrameReported {
                firstFrameReported = true
                emit(.firstFrameShown(pts: frame.pts))
            }
            if observesEveryFrame {
                emit(.frameShown(FrameReport(pts: frame.pts, index: frame.index, drift: drift)))
            }
        case .subtitlesRead(let decoded):
            subtitlesRead(decoded)
        }
    }

    // MARK: - State machine

    /// Moves the state through the table; commands may be vetoed by the host. `apply` runs once
    /// the change is certain and before anyone hears of it, so whoever reacts to the new state
    /// finds the player already in it (a paused clock no longer moves).
    @discardableResult
    func transition(_ input: StateMachine.Input, error: PlayerError? = nil,
                            apply: () -> Void = {}) -> Bool {
        guard let next = StateMachine.next(from: state, on: input, error: error) else { return false }
        if next == state && input != .open { apply(); return true }
        if input.isCommand && !hooks.shouldChangeState(state, next) {
            emit(.transitionVetoed(from: state, to: next))
            return false
        }
        hooks.willChangeState(state, next)
        apply()
        let from = state
        state = next
        snapshot.withLock { $0.state = next }
        emit(.stateChanged(from: from, to: next))
        return true
    }

    func fail(_ error: PlayerError) {
        teardown()
        transition(.fail, error: error)
    }

    // MARK: - Commands

    private func open(_ source: MediaSource) {
        // Reopening the same media (another audio stream) keeps what follows it.
        if session?.input.source != source { upNext = nil }
        teardown()
        generation = newGeneration()
        guard transition(.open) else { return }
        wantsPlay = false
        pendingSeek = nil
        firstFrameReported = false
        durationAnnounced = false
        configuration.audioStream = subtitles.pendingAudioStream
        configuration.audioLanguages = subtitles.preferredAudioLanguages
        subtitles.pendingAudioStream = nil
        let loader = MediaLoader()
        self.loader = loader
        let gen = generation
        let mailbox = self.mailbox
        loader.start(source: source, configuration: configuration, durationKnown: { duration in
            mailbox.post(.durationKnown(duration, generation: gen))
        }, cacheEvent: { mailbox.post(.cache($0, generation: gen)) }) { result in
            switch result {
            case .success(let loaded): mailbox.post(.loaded(loaded, generation: gen))
            case .failure(let error): mailbox.post(.loadFailed(error, generation: gen))
            }
        }
    }

    private func didLoad(_ loaded: MediaLoader.Loaded) {
        loader?.join(); loader = nil
        let gen = generation
        let mailbox = self.mailbox
        let session = Session(loaded: loaded, configuration: configuration) { report in
            mailbox.post(.session(report, generation: gen))
        }
        self.session = session
        session.presentation?.reportsEveryFrame = observesEveryFrame
        audioDetached = false
        demuxEnded = nil
        publish(session, warnings: loaded.warnings)
        session.setSpeed(speed)
        serial += 1
        demuxSerial = serial
        audioStale = false
        let request: SeekRequest
        if let seek = pendingSeek {
            request = SeekRequest(serial: serial, target: clampTarget(seek.target), mode: seek.mode, movesDemuxer: true)
        } else {
            request = SeekRequest(serial: serial, target: 0, mode: .keyframe, movesDemuxer: false)
        }
        pendingSeek = nil
        preroll = Preroll(request: request, isInitial: true)
        session.start(initial: request)
    }

    /// Makes `session`'s media the one other threads read and the host hears of: its duration
    /// (unless already announced), what was probed, its warnings; its subtitles start and the
    /// volume applies to its output. For an opening and for a gapless hand-over alike.
    func publish(_ session: Session, warnings: [String]) {
        let info = session.info
        snapshot.withLock {
            $0.session = session
            $0.info = info
            $0.duration = info.duration
        }
        if let duration = info.duration, !durationAnnounced {
            durationAnnounced = true
            emit(.durationKnown(duration))
        }
        emit(.mediaLoaded(info))
        startSubtitles(for: info, source: session.input.source)
        for warning in warnings { emit(.warning(warning)) }
        if let warning = session.audioWarning, !warnedNoSound {
            warnedNoSound = true
            emit(.warning(warning))
        }
        applyVolume()
    }

    /// A generation number never given out before (openings and prepared followers share them).
    func newGeneration() -> Int {
        generationCounter += 1
        return generationCounter
    }

    private func play() {
        switch state {
        case .loading:
            wantsPlay = true
        case .ready where preroll == nil && isAtEnd:
            // Paused on the last picture (a seek to the end, a step off the last frame): play
            // means "again", not "end at once" (ASBPlayerScrubbing's replay after the end).
            guard transition(.play) else { return }
            beginSeek(to: 0, mode: .keyframe)
        case .ready where audioStale && session?.hasAudio == true:
            // The picture moved alone while paused: an exact seek to it brings the sound.
            let here = session!.clock.time()
            guard transition(.play) else { return }
            beginSeek(to: here, mode: .exact)
        case .ready:
            guard transition(.play, apply: { if preroll == nil { startClock() } }) else { return }
            emitTime()
        case .ended:
            guard transition(.play) else { return }
            beginSeek(to: 0, mode: .keyframe)
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

    private func pause() {
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

    private func seek(to target: Double, mode: SeekMode) {
        guard target.isFinite else { return }
        switch state {
        case .loading where session == nil:
            pendingSeek = (target, mode)   // applied as the first preroll, when loaded
        case .loading, .ready, .playing, .stalled:
            beginSeek(to: target, mode: mode)
        case .ended:
            guard transition(.seek) else { return }
            beginSeek(to: target, mode: mode)
        default:
            break
        }
    }

    func clampTarget(_ target: Double) -> Double {
        var t = max(0, target)
        if let duration = (session?.info ?? snapshot.current.info)?.duration { t = min(t, duration) }
        return t
    }

    func beginSeek(to target: Double, mode: SeekMode, fillsPast: Bool = false, audioSwitch: AudioSwitch? = nil) {
        guard let session else { return }
        if !fillsPast && audioSwitch == nil {
            pendingBackSteps = 0
            if mode == .exact, landWithinReach(target) { return }
        }
        serial += 1
        demuxSerial = serial
        audioStale = false
        pendingSteps = 0
        starvedSince = nil
        demuxEnded = nil
        audioDetached = false
        session.clock.follow(session.output)
        var request = SeekRequest(serial: serial, target: clampTarget(target), mode: mode, movesDemuxer: true)
        request.fillsPast = fillsPast
        request.audioSwitch = audioSwitch
        // A seek during the first preroll replaces it, and still ends the loading.
        preroll = Preroll(request: request, isInitial: preroll?.isInitial ?? false)
        if audioSwitch != nil { session.switchAudio(request) } else { session.seek(request) }
    }

    /// The first frame starts after the target (or the stream ended before any frame: the
    /// demuxer went past the last key frame) although the demuxer could go further back.
    private func landedTooLate(_ request: SeekRequest, pts: Double) -> Bool {
        request.movesDemuxer && request.demuxTarget > 0 && request.attempt < 6
            && (pts.isNaN || pts > request.target + 0.0005)
    }

    private func retry(_ p: Preroll, landedAt pts: Double) {
        guard let session else { return }
        serial += 1
        demuxSerial = serial
        audioStale = false
        session.clock.follow(session.output)
        let request = p.request.retried(serial: serial, landedAt: pts)
        preroll = Preroll(request: request, isInitial: p.isInitial)
        session.seek(request)
    }

    private func stepForward() {
        guard state.hasMedia, state != .ended, session?.hasVideo == true else { return }
        if state == .playing || state == .stalled { pause() }
        guard state == .ready else { return }
        pendingSteps += 1
        if preroll == nil { performPendingSteps() }
    }

    /// One picture back: from the decoded past when it is held (no decoding), else an exact
    /// seek into the previous frame's interval that keeps what it decodes on the way.
    private func stepBackward() {
        guard state.hasMedia, session?.presentation != nil else { return }
        if state == .playing || state == .stalled { pause() }
        guard state == .ready || state == .ended else { return }
        pendingBackSteps += 1
        if preroll == nil { performPendingBackSteps() }
    }

    /// A scrubber drag: the picture at the position when it is decoded or cheaply reached by
    /// decoding on, else the key frame at or before it. One landing at a time: positions that
    /// arrive meanwhile wait, and only the newest is asked for when the landing is done.
    func scrub(to target: Double) {
        guard target.isFinite else { return }
        if state == .playing || state == .stalled { pause() }
        if preroll != nil {
            pendingScrub = target
            return
        }
        pendingScrub = nil
        // Decoding on keeps what it passes, so a drag that turns back finds it decoded.
        if state == .ready, landWithinReach(target, fillsPast: true) { return }
        seek(to: target, mode: .keyframe)
    }

    /// The drag ends: the exact picture at the release position, whatever was under way.
    private func endScrub(at target: Double) {
        endDrag()
        seek(to: target, mode: .exact)
    }

    /// Any other move ends a drag: a position it left waiting must not land afterwards.
    func endDrag() {
        pendingScrub = nil
    }

    func performPendingSteps() {
        guard let session, let presentation = session.presentation else { pendingSteps = 0; return }
        while pendingSteps > 0, let frame = presentation.step() {
            pendingSteps -= 1
            session.clock.set(frame.pts)
            if let fifo = session.fifo {
                session.output?.flush()
                if !fifo.rewind(to: frame.pts) { fifo.discard(before: frame.pts) }
            }
            emit(.displayInvalidated)
            emit(.seekCompleted(position: frame.pts))
            emitTime()
        }
        // At the last frame there is nothing to step to.
        if pendingSteps > 0, session.frameQueue?.reachedEnd == true, session.frameQueue?.count == 0 {
            pendingSteps = 0
        }
    }

    func applyVolume() {
        session?.output?.setVolume(volume, muted: muted)
        snapshot.withLock { $0.volume = volume; $0.muted = muted }
        emit(.volumeChanged(volume: volume, muted: muted))
    }

    /// The sound for the new speed is made by the audio decoder (a tempo filter), so what is
    /// already decoded at the old speed is replaced: an exact seek to the picture on screen,
    /// which keeps the position to the frame and brings sound and picture back together.
    private func setSpeed(_ requested: Double) {
        guard requested.isFinite else { return }
        let value = min(max(requested, speedRange.lowerBound), speedRange.upperBound)
        guard value != speed else { return }
        speed = value
        snapshot.withLock { $0.speed = value }
        emit(.speedChanged(value))
        guard let session else { return }
        session.setSpeed(value)
        guard session.hasAudio, state.hasMedia, state != .ended else { return }
        // During a preroll its target is where the picture will be; the new seek replaces it.
        let here = preroll?.request.target ?? session.presentation?.currentFrame?.pts ?? session.clock.time()
        beginSeek(to: here, mode: preroll?.request.mode ?? .exact)
    }

    func startClock() {
        guard let session else { return }
        session.setPastLimit(.playing)
        session.clock.run()
        session.output?.start()
        nextTimeEvent = HostTime.now.adding(seconds: timeInterval)
    }

    func stopClock() {
        guard let session else { return }
        session.setPastLimit(.paused)
        session.clock.freeze()
        session.output?.pause()
    }

    func teardown() {
        dropPrepared()
        stopSubtitles()
        loader?.cancel()
        loader?.join()
        loader = nil
        session?.shutdown()
        session = nil
        preroll = nil
        pendingSteps = 0
        pendingBackSteps = 0
        pendingScrub = nil
        audioStale = false
        starvedSince = nil
        snapshot.withLock { $0.session = nil }
    }

}
