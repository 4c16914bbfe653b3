import ReelEngine

/// Rewind and fast-forward that act while held: the press starts scanning at rising speed (2×,
/// 4×, 8×, 16× every second), showing key frames, and the release returns to normal play at the
/// reached position. A quick click skips 10 s instead. Where playback is, is the model's.
/// Threading: main thread only.
@MainActor
public final class HoldToScan {
    private let player: PlaybackController
    private let model: PlayerModel
    private let seeker: Seeker
    private var timer: Timer?
    private var started: Double = 0
    private var target: Double = 0
    private var wasPlaying = false
    private var direction: Double = 1
    private var scanned = false
    private var skipsOnClick = true
    public static let tick = 0.25
    public static let clickSkip = 10.0

    public init(player: PlaybackController, model: PlayerModel, seeker: Seeker) {
        self.player = player
        self.model = model
        self.seeker = seeker
    }

    public var isScanning: Bool { timer != nil }

    /// `skipsOnClick`: a release before the first scan step skips 10 s (the buttons); a held
    /// key has already done its own step, so it passes false.
    public func press(forward: Bool, now: Double, skipsOnClick: Bool = true) {
        guard model.hasMedia, !model.inBreak else { return }
        self.skipsOnClick = skipsOnClick
        direction = forward ? 1 : -1
        wasPlaying = model.state == .playing || model.state == .stalled
        target = model.seekBase(now: now)
        started = now
        scanned = false
        timer = Timer(seconds: Self.tick) { [weak self] in
            self?.step()
            return true
        }
    }

    /// Speed doubles each second held, from 2× to 16×.
    private func step() {
        if !scanned {
            scanned = true
            model.scanStarted()
            player.pause()
        }
        let held = HostTime.now.seconds(since: HostTime(nanoseconds: UInt64(started * 1e9)))
        let speed = min(16, 2 * pow2(Int(held)))
        target = min(max(0, target + direction * speed * Self.tick), model.duration ?? .infinity)
        seeker.seek(to: target, mode: .keyframe)
    }

    private func pow2(_ n: Int) -> Double { Double(1 << min(max(n, 0), 3)) }

    public func release() {
        guard let timer else { return }
        timer.cancel()
        self.timer = nil
        if !scanned {
            guard skipsOnClick else { return }
            seeker.seek(by: direction * Self.clickSkip)
            return
        }
        // Land exactly where the scan stopped, then go on as before.
        seeker.seek(to: target)
        model.scanEnded(resuming: wasPlaying)
        if wasPlaying { player.play() }
    }
}
