import Foundation

/// A player with breaks (an advert, an announcement): other items scheduled at times of the
/// main item, or before it. When the main item reaches one it is paused and put back exactly
/// at the scheduled time, reports `suspended`, and the interstitial plays in its
/// place — the same surface pulls its pictures from here — with restricted control (play and
/// pause only). When the interstitial ends (or cannot play) the main item continues where it
/// was, playing if it was. Each interstitial plays once per opening of the main item.
///
/// Threading: methods may be called from any thread. Events of both inner players arrive on
/// their own control threads; all state here is behind `lock`, and events go out through the
/// sink in the order they are decided (the sink is called outside the lock).
public final class InterstitialPlayer: PlaybackController, @unchecked Sendable {
    // Safe: every mutable property is guarded by `lock`.
    private let lock = NSLock()
    private let configuration: PlayerConfiguration
    private let emit: @Sendable (PlayerEvent) -> Void
    private let main: Player
    private var break_: Player?
    private var scheduled: [(source: MediaSource, at: Double, played: Bool)] = []
    private var active: Int?
    private var resumePlaying = false
    /// The state the host last heard of (the main item's, or `suspended`).
    private var reported: PlayerState = .idle
    private var hostInterval = 0.25
    /// Every interstitial gets a new serial, so late events of an earlier one are ignored.
    private var breakSerial = 0

    public init(configuration: PlayerConfiguration = PlayerConfiguration(),
                events: @escaping @Sendable (PlayerEvent) -> Void = { _ in }) {
        self.configuration = configuration
        emit = events
        let relay = Relay()
        main = Player(configuration: configuration, events: { relay.owner?.mainEvent($0) })
        relay.owner = self
    }

    /// Hands the inner player's events to this object once it exists.
    /// Threading: `owner` is set once, before any event can be produced by an open.
    private final class Relay: @unchecked Sendable {
        // Safe: written once in init before the main player has media; read afterwards.
        weak var owner: InterstitialPlayer?
    }

    // MARK: Scheduling

    /// Plays `source` when the main item reaches `seconds` (≤ 0: before it starts).
    public func schedule(_ source: MediaSource, at seconds: Double) {
        lock.lock()
        scheduled.append((source, max(0, seconds), false))
        scheduled.sort { $0.at < $1.at }
        lock.unlock()
        main.setTimeObserverInterval(observerInterval)
    }

    public func clearSchedule() {
        lock.lock()
        scheduled.removeAll()
        lock.unlock()
    }

    /// The main item's own player, for what only it has (subtitle tracks, audio streams).
    public var mainPlayer: Player { main }

    public var isSuspended: Bool { lock.lock(); defer { lock.unlock() }; return active != nil }

    /// Watching for the next break needs finer time than a host's clock labels do.
    private var observerInterval: Double {
        lock.lock()
        defer { lock.unlock() }
        return scheduled.contains { !$0.played } ? min(hostInterval, 0.04) : hostInterval
    }

    // MARK: PlaybackController

    /// The state as the host was last told it: right after a break ends it already reads
    /// `playing` while the main player is still getting there, so a host that reads it on the
    /// event agrees with the event (the main player's own arrival is not announced twice).
    public var state: PlayerState { lock.lock(); defer { lock.unlock() }; return active != nil ? .suspended : reported }
    public var mediaInfo: MediaInfo? { main.mediaInfo }
    public var duration: Double? { main.duration }
    public var position: Double { main.position }
    public var volume: Double { main.volume }
    public var isMuted: Bool { main.isMuted }
    public var speed: Double { main.speed }
    public var isLevelling: Bool { main.isLevelling }
    public var statistics: PlaybackStatistics { main.statistics }

    public func open(_ source: MediaSource) {
        endBreak(reportingEnd: false)
        lock.lock()
        for i in scheduled.indices { scheduled[i].played = false }
        lock.unlock()
        main.open(source)
    }

    public func open(_ pathOrURL: String) {
        do throws(PlayerError) { open(try MediaSource(parsing: pathOrURL)) } catch { main.open(pathOrURL) }
    }

    public func setNext(_ source: MediaSource?, audioStream: Int?) { main.setNext(source, audioStream: audioStream) }
    public func setLoop(_ span: LoopSpan?) { main.setLoop(span) }
    public func prefetchPicture(at seconds: Double?) { main.prefetchPicture(at: seconds) }

    public func play() {
        if let player = currentBreak() { player.play(); return }
        // A break scheduled before the main item plays first.
        if let index = nextBreak(atOrBefore: 0) {
            startBreak(index, resumePlaying: true)
            return
        }
        main.play()
    }

    public func pause() {
        if let player = currentBreak() { player.pause(); return }
        main.pause()
    }

    public func togglePause() {
        if let player = currentBreak() { player.togglePause(); return }
        if main.state == .playing || main.state == .stalled { main.pause() } else { play() }
    }

    // Moving through the main item waits until the break is over.
    public func seek(to seconds: Double, mode: SeekMode) { if !isSuspended { main.seek(to: seconds, mode: mode) } }
    public func stepForward() { if !isSuspended { main.stepForward() } }
    public func stepBackward() { if !isSuspended { main.stepBackward() } }
    public func scrub(to seconds: Double) { if !isSuspended { main.scrub(to: seconds) } }
    public func endScrub(at seconds: Double) { if !isSuspended { main.endScrub(at: seconds) } }

    public func close() {
        endBreak(reportingEnd: false)
        main.close()
    }

    public func setVolume(_ volume: Double) {
        main.setVolume(volume)
        currentBreak()?.setVolume(volume)
    }

    public func setMuted(_ muted: Bool) {
        main.setMuted(muted)
        currentBreak()?.setMuted(muted)
    }

    public func setSpeed(_ speed: Double) { main.setSpeed(speed) }

    public func setLevelling(_ on: Bool) {
        main.setLevelling(on)
        currentBreak()?.setLevelling(on)
    }

    public func setTimeObserverInterval(_ seconds: Double) {
        lock.lock()
        hostInterval = seconds
        lock.unlock()
        main.setTimeObserverInterval(observerInterval)
    }

    public func frame(for displayTime: HostTime, refreshInterval: Double) -> VideoFrame? {
        (currentBreak() ?? main).frame(for: displayTime, refreshInterval: refreshInterval)
    }

    public func waitForNewFrame(timeout: Double) {
        (currentBreak() ?? main).waitForNewFrame(timeout: timeout)
    }

    // MARK: Breaks

    private func currentBreak() -> Player? {
        lock.lock()
        defer { lock.unlock() }
        return active != nil ? break_ : nil
    }

    private func nextBreak(atOrBefore position: Double) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard active == nil else { return nil }
        return scheduled.indices.first { !scheduled[$0].played && scheduled[$0].at <= position }
    }

    private func report(_ index: Int) -> InterstitialReport {
        InterstitialReport(index: index, source: scheduled[index].source, at: scheduled[index].at)
    }

    private func startBreak(_ index: Int, resumePlaying: Bool) {
        lock.lock()
        guard active == nil else { lock.unlock(); return }
        active = index
        scheduled[index].played = true
        self.resumePlaying = resumePlaying
        breakSerial += 1
        let serial = breakSerial
        let at = scheduled[index].at
        let source = scheduled[index].source
        let from = reported
        reported = .suspended
        let started = report(index)
        let player = Player(configuration: configuration, events: { [weak self] in self?.breakEvent($0, serial: serial) })
        break_ = player
        lock.unlock()

        // The main item waits exactly at the break's time (it may have run a frame or two past).
        main.pause()
        if at > 0 { main.seek(to: at, mode: .exact) }
        player.setVolume(main.volume)
        player.setMuted(main.isMuted)
        player.setLevelling(main.isLevelling)
        player.setTimeObserverInterval(0.25)
        emit(.stateChanged(from: from, to: .suspended))
        emit(.interstitialStarted(started))
        player.open(source)
        player.play()
    }

    /// Ends the break in progress; the main item continues (unless `reportingEnd` is false:
    /// the main item is being replaced or closed).
    private func endBreak(error: PlayerError? = nil, reportingEnd: Bool = true) {
        lock.lock()
        guard let index = active, let player = break_ else { lock.unlock(); return }
        active = nil
        break_ = nil
        breakSerial += 1
        let ended = report(index)
        let playOn = resumePlaying
        // A main item still opening (a break before it) reports its own way to playing.
        let now = main.state
        let to: PlayerState = playOn && now.hasMedia ? .playing : now
        if reportingEnd { reported = to }
        lock.unlock()
        player.close()
        // This may run on the break player's own control thread (its last event): the last
        // reference must go elsewhere, since releasing a player joins that thread.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { withExtendedLifetime(player) {} }
        guard reportingEnd else { return }
        emit(.interstitialEnded(ended, error: error))
        emit(.stateChanged(from: .suspended, to: to))
        emit(.displayInvalidated)
        if playOn { main.play() }
        main.setTimeObserverInterval(observerInterval)
    }

    // MARK: Events

    private func mainEvent(_ event: PlayerEvent) {
        lock.lock()
        let suspended = active != nil
        lock.unlock()
        switch event {
        case .stateChanged(_, let to):
            if suspended, !isFailure(to) { return }   // the pause for the break, and its seek
            lock.lock()
            let from = reported
            let duplicate = from == to
            reported = to
            lock.unlock()
            if case .failed = to { endBreak(reportingEnd: false) }
            if !duplicate { emit(.stateChanged(from: from, to: to)) }
            // Loading a new item: breaks at 0 play when the host asks to play.
        case .time(let position, _):
            if suspended { return }
            emit(event)
            if main.state == .playing, let index = nextBreak(atOrBefore: position), scheduledAt(index) > 0 {
                startBreak(index, resumePlaying: true)
            }
        case .displayInvalidated, .frameShown, .firstFrameShown, .seekCompleted:
            if !suspended { emit(event) }
        default:
            emit(event)
        }
    }

    private func scheduledAt(_ index: Int) -> Double {
        lock.lock()
        defer { lock.unlock() }
        return scheduled[index].at
    }

    private func isFailure(_ state: PlayerState) -> Bool {
        if case .failed = state { return true }
        return false
    }

    private func breakEvent(_ event: PlayerEvent, serial: Int) {
        lock.lock()
        let current = serial == breakSerial && active != nil
        lock.unlock()
        guard current else { return }
        switch event {
        case .time(let position, let duration):
            emit(.interstitialProgress(position: position, duration: duration))
        case .displayInvalidated, .frameShown, .firstFrameShown:
            emit(event)
        case .playedToEnd:
            endBreak()
        case .stateChanged(_, .failed(let error)):
            endBreak(error: error)
        default:
            break
        }
    }
}
