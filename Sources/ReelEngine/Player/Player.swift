import Foundation

/// The engine's player: opens local files and http(s) URLs, plays audio and video in sync,
/// seeks exactly, and reports everything through one event sink.
///
/// Threading: every method may be called from any thread; commands are queued to the player's
/// control thread and applied in order. Events (and hooks) are delivered on that control
/// thread — never on the caller's — so a GTK host hops to its main loop itself.
/// `frame(for:)` is called by the presenting thread and never waits for decoding.
public final class Player: PlaybackController, @unchecked Sendable {
    // Safe: `core` is immutable; it is thread-safe by its own contract.
    let core: PlayerCore

    public init(configuration: PlayerConfiguration = PlayerConfiguration(),
                hooks: PlayerHooks = PlayerHooks(),
                events: @escaping @Sendable (PlayerEvent) -> Void = { _ in }) {
        FFmpegLog.configure()
        core = PlayerCore(configuration: configuration, hooks: hooks, emit: events)
    }

    deinit { core.shutdown() }

    func send(_ command: PlayerCommand) { core.mailbox.post(.command(command)) }

    // MARK: Commands

    public func open(_ source: MediaSource) { send(.open(source)) }

    /// Opens a path or URL as typed or handed over by a file manager. Addresses Reel does not
    /// open end in `failed(.unsupportedSource)` like any other load failure.
    public func open(_ pathOrURL: String) {
        do throws(PlayerError) { send(.open(try MediaSource(parsing: pathOrURL))) } catch { send(.openFailed(error)) }
    }

    /// What follows the current item when it ends by itself (nil: nothing). It is opened and
    /// prerolled shortly before the end and takes over without a gap in picture or sound
    /// (`nextItemStarted`); any other open, seek or close makes that preparation start over.
    /// `audioStream`: the audio stream to play in it (nil: by the preferred languages).
    public func setNext(_ source: MediaSource?, audioStream: Int? = nil) { send(.setNext(source, audioStream: audioStream)) }

    public func play() { send(.play) }
    public func pause() { send(.pause) }
    public func togglePause() { send(.togglePause) }
    public func seek(to seconds: Double, mode: SeekMode = .exact) { send(.seek(to: seconds, mode: mode)) }
    public func stepForward() { send(.stepForward) }
    public func stepBackward() { send(.stepBackward) }
    public func scrub(to seconds: Double) { send(.scrub(to: seconds)) }
    public func endScrub(at seconds: Double) { send(.endScrub(at: seconds)) }
    /// Decodes the exact picture at `seconds` ahead, in the background, so that a seek there
    /// (a click on the scrubber where the pointer rests) shows it at once; nil: not needed.
    public func prefetchPicture(at seconds: Double?) { send(.prefetchPicture(at: seconds)) }
    /// The time whose exact picture is decoded ahead, once it is.
    public var prefetchedPicture: Double? { core.snapshot.current.prefetched }
    public func close() { send(.close) }
    public func setVolume(_ volume: Double) { send(.setVolume(volume)) }
    public func setMuted(_ muted: Bool) { send(.setMuted(muted)) }
    public func setSpeed(_ speed: Double) { send(.setSpeed(speed)) }
    public func setLevelling(_ on: Bool) { send(.setLevelling(on)) }
    public func setLoop(_ span: LoopSpan?) { send(.setLoop(span)) }
    /// Deinterlacing from the picture on screen on (the next openings too).
    public func setDeinterlace(_ mode: DeinterlaceMode) { send(.setDeinterlace(mode)) }
    public func setTimeObserverInterval(_ seconds: Double) { send(.setTimeObserverInterval(seconds)) }
    public func setObservesEveryFrame(_ on: Bool) { send(.setObservesEveryFrame(on)) }

    // MARK: Reading

    public var state: PlayerState { core.snapshot.current.state }
    public var mediaInfo: MediaInfo? { core.snapshot.current.info }
    public var duration: Double? { core.snapshot.current.duration }
    public var volume: Double { core.snapshot.current.volume }
    public var isMuted: Bool { core.snapshot.current.muted }
    public var speed: Double { core.snapshot.current.speed }
    public var isLevelling: Bool { core.snapshot.current.levelling }
    /// What is done to interlaced pictures now (nil before the first frame is decoded).
    public var deinterlacing: DeinterlaceStatus? { core.snapshot.current.session?.deinterlacing }

    public var position: Double {
        core.snapshot.current.session?.clock.time(at: .now) ?? 0
    }

    /// The picture currently on screen (or landed by the last seek), without advancing time.
    public var currentFrame: VideoFrame? {
        core.snapshot.current.session?.presentation?.currentFrame
    }

    public func frame(for displayTime: HostTime, refreshInterval: Double = 1.0 / 60) -> VideoFrame? {
        core.snapshot.current.session?.presentation?.frame(for: displayTime, refreshInterval: refreshInterval)
    }

    /// Engine threads this player is running now (control, loader, demux, decoders, silent
    /// output): 0 once the player is gone. For leak checks.
    var liveThreadCount: Int { EngineThread.liveCount(owner: core.owner) }

    /// The tag of this player's threads, to count them after the player is gone.
    var threadOwner: EngineThread.Owner { core.owner }

    public func waitForNewFrame(timeout: Double) {
        guard let queue = core.snapshot.current.session?.frameQueue else {
            core.sessionPublished.wait(timeout: timeout)
            return
        }
        queue.waitForFrame(timeout: timeout)
    }

    public var statistics: PlaybackStatistics {
        let snapshot = core.snapshot.current
        var statistics = snapshot.session?.statistics ?? PlaybackStatistics()
        statistics.prefetchesServed = snapshot.prefetchesServed
        (statistics.loopJumps, statistics.loopJumpsBySeek) = snapshot.loopJumps
        return statistics
    }
}
