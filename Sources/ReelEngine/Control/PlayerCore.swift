import Foundation

/// The player's control loop: it alone owns the state machine and the media slots. Commands and
/// engine reports arrive through one mailbox and are dispatched in order to its parts: the item
/// playing and the one prepared to follow (`MediaSlot`), the seek coordinator, the tracks; between
/// messages it watches landings, the end of the media, stalls and the time observer.
/// Threading: every member but `mailbox` and `snapshot` is confined to the control thread;
/// `snapshot` is the locked read-only view other threads use.
final class PlayerCore: @unchecked Sendable {
    // Safe: see the threading contract above; only `mailbox` and `snapshot` cross threads, and
    // both lock.
    /// What other threads may read without asking the control thread.
    struct Snapshot {
        var state: PlayerState = .idle
        var info: MediaInfo?
        var duration: Double?
        var session: Session?
        var volume: Double = 1
        var muted = false
        var speed = 1.0
        var levelling = false
        /// The time whose exact picture is decoded ahead (`PicturePrefetch`), and how many
        /// seeks showed such a picture at once.
        var prefetched: Double?
        var prefetchesServed = 0
        var loopJumps = (seamless: 0, bySeek: 0)
    }

    let mailbox = Mailbox<ControlMessage>()
    let snapshot = Locked(Snapshot())
    /// Signalled when a session is published in `snapshot` (a presenter waiting for pictures
    /// before there is any media wakes then).
    let sessionPublished = Wakeup()
    /// Changed by the tracks once running (the audio stream to open, see Tracks/AudioTracks).
    var configuration: PlayerConfiguration
    let hooks: PlayerHooks
    let emit: @Sendable (PlayerEvent) -> Void
    private var thread: EngineThread?
    /// Tags every thread this player starts, so they can be counted (`EngineThread.liveCount`).
    let owner = EngineThread.newOwner()

    private(set) var state: PlayerState = .idle
    /// The item playing (or loading, or closed).
    var current = MediaSlot(generation: 0)
    /// The item prepared to follow it gaplessly (Gapless.swift).
    var next: MediaSlot? = nil
    /// The A-B loop's span, and the same item prepared at its start (ABLoop.swift); whether
    /// preparing it failed; the generation the item was opened under, once the loop took over.
    var loop = LoopWatch()
    var loopStart: MediaSlot? = nil
    var loopStartFailed = false
    var loopOrigin: Int?
    /// The exact picture where the pointer rests, decoded ahead (PicturePrefetch.swift).
    var prefetch = PicturePrefetch()
    /// What follows the current item (`Player.setNext`); `failed` once preparing it failed.
    var upNext: (source: MediaSource, audioStream: Int?, failed: Bool)?
    var seeks = SeekCoordinator()
    /// Tracks, selection, delays and style of the subtitles; the audio stream chosen.
    let tracks = TrackControl()
    /// Play was asked for while loading.
    var wantsPlay = false
    var sound = SoundSettings()
    /// The player's one sound output, for its whole life: lent to the session playing, which
    /// alone starts, pauses and flushes it (the one whose FIFO it reads); closed only when the
    /// player closes or goes (see `SoundDevice`).
    let soundDevice: SoundDevice
    var observer: TimeObserver
    private var generationCounter = 0
    private var running = true

    init(configuration: PlayerConfiguration, hooks: PlayerHooks, emit: @escaping @Sendable (PlayerEvent) -> Void) {
        self.configuration = configuration
        self.hooks = hooks
        self.emit = emit
        soundDevice = SoundDevice(configuration: configuration)
        observer = TimeObserver(interval: configuration.timeObserverInterval,
                                everyFrame: configuration.observesEveryFrame)
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

    var session: Session? { current.session }

    // MARK: - Loop

    /// mpv's play loop: every pass handles what came, then each watcher says when it next
    /// needs to run (`watch`), and the thread sleeps until the earliest of those or the next
    /// message: paused, only a message wakes it.
    private func run() {
        var deadline: HostTime?
        while running {
            if let message = mailbox.receive(until: deadline) {
                handle(message)
            }
            if running { deadline = watch() }
        }
    }

    private func handle(_ message: ControlMessage) {
        if let generation = next?.generation, message.generation == generation {
            handleForNext(message)
            return
        }
        if let generation = loopStart?.generation, message.generation == generation { return handleForLoopStart(message) }
        if let generation = prefetch.generation, message.generation == generation {
            handleForPrefetch(message)
            return
        }
        switch message {
        case .command(let command): handle(command)
        case .durationKnown(let duration, let gen):
            guard gen == current.generation, !current.durationAnnounced else { return }
            current.durationAnnounced = true
            snapshot.withLock { $0.duration = duration }
            emit(.durationKnown(duration))
        case .loaded(let loaded, let gen):
            guard gen == current.generation else { loaded.input.close(); return }
            didLoad(loaded)
        case .loadFailed(let error, let gen):
            guard gen == current.generation else { return }
            current.finishLoading()
            fail(error)
        case .session(let report, let gen):
            guard gen == current.generation else { return }
            handle(report)
        case .subtitles(let report, let gen):
            guard gen == current.generation || gen == loopOrigin else { return }
            handle(report)
        case .cache(let event, let gen):
            guard gen == current.generation else { return }
            if case .downloadFailed(let error) = event { current.downloadFailure = error }
            emit(event)
        case .shutdown:
            teardown()
            soundDevice.close()
            running = false
        }
    }

    private func handle(_ command: PlayerCommand) {
        // Anything that moves, stops or replaces the current item undoes a chained follower
        // (it is prepared again while playing on towards the end).
        switch command {
        case .setVolume, .setMuted, .setTimeObserverInterval, .setObservesEveryFrame, .track, .setNext, .prefetchPicture: break
        default: dropNext()
        }
        loopHears(command)
        switch command {
        case .setNext(let source, let audioStream): setNext(source, audioStream: audioStream)
        case .prefetchPicture(let target): prefetchPicture(at: target)
        case .open(let source): open(source)
        case .openFailed(let error):
            teardown()
            current = MediaSlot(generation: newGeneration())
            if transition(.open) { fail(error) }
        case .play: play()
        case .pause: pause()
        case .togglePause:
            if state == .playing || state == .stalled || (state == .loading && wantsPlay) { pause() } else { play() }
        case .seek(let target, let mode): seek(to: target, mode: mode)
        case .stepForward: stepForward()
        case .stepBackward: stepBackward()
        case .scrub(let target): scrub(to: target)
        case .endScrub(let target): endScrub(at: target)
        case .close:
            guard state != .closed else { return }
            transition(.close) {
                teardown()
                soundDevice.close()
            }
        case .setVolume(let v): setVolume(v)
        case .setSpeed(let s): setSpeed(s)
        case .setLevelling(let on): setLevelling(on)
        case .setDeinterlace(let mode): setDeinterlace(mode)
        case .setMuted(let m): setMuted(m)
        case .setTimeObserverInterval(let interval): observer.setInterval(interval)
        case .setObservesEveryFrame(let on):
            observer.everyFrame = on
            session?.presentation?.reportsEveryFrame = on
        case .track(let command): handle(command)
        case .setLoop(let span): setLoop(span)
        }
    }

    private func handle(_ report: Session.Report) {
        switch report {
        case .videoArrived(let s, let pts):
            guard let p = current.preroll, p.request.serial == s else { return }
            if let again = seeks.pictureArrived(for: p.request, at: pts) {
                carryOut([.retry(again)])
                return
            }
            _ = current.pictureArrived(serial: s, pts: pts)
            checkPreroll()
        case .audioReady(let s):
            if current.soundReady(serial: s) { checkPreroll() }
        case .demuxEnded(let s, let error):
            current.demuxerEnded(serial: s, error: error)
        case .frameShown(let frame, let drift, let first):
            if first && !current.firstFrameReported {
                current.firstFrameReported = true
                emit(.firstFrameShown(pts: frame.pts))
            }
            if observer.everyFrame {
                emit(.frameShown(FrameReport(pts: frame.pts, index: frame.index, drift: drift)))
            }
        case .subtitlesRead(let decoded):
            subtitlesRead(decoded)
        case .decoded, .decoderEnded:
            break   // what waited for it looks again (`watch`)
        case .deinterlacing(let status):
            emit(.deinterlacingChanged(status))
        }
    }

    // MARK: - State machine

    /// Moves the state through the table; commands may be vetoed by the host. `apply` runs once
    /// the change is certain and before anyone hears of it, so whoever reacts to the new state
    /// finds the player already in it (a paused clock no longer moves).
    @discardableResult
    func transition(_ input: StateMachine.Input, error: PlayerError? = nil, apply: () -> Void = {}) -> Bool {
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

    // MARK: - Closing

    /// A generation number never given out before (openings and prepared followers share them).
    func newGeneration() -> Int {
        generationCounter += 1
        return generationCounter
    }

    func teardown() {
        dropNext()
        dropLoopStart()
        closePrefetch()
        stopSubtitles()
        current.close()
        seeks.reset()
        snapshot.withLock { $0.session = nil }
    }
}
