import Foundation

/// The media time now: the audio device's position while audio plays (the master), else the
/// monotonic clock. Frozen while paused, prerolling or stalled, so pause/resume are continuous.
/// While a device drives it and cannot answer yet (just started, waiting for its first timing
/// report), the clock holds still rather than guess: the sound is not audible yet either.
/// Its `pacing` may keep the media time itself instead (freewheel).
/// Threading: any thread; guarded by a lock that is never held while calling the audio output.
final class PlaybackClock: @unchecked Sendable {
    // Safe: all mutable state is guarded by `lock`.
    private let lock = NSLock()
    private var frozenAt: Double? = 0
    private var basePts: Double = 0
    private var baseHost = HostTime.now
    private var audio: AudioOutput?
    /// Where the clock last started running; it never reports earlier than this.
    private var runStart: Double = 0
    /// Media seconds per second on the monotonic line (the device's report already includes it).
    private var speed: Double = 1
    /// Seconds the sound is heard after the picture it belongs to: while the device drives
    /// the clock, the picture shown is that much ahead of what is heard.
    private var audioDelay: Double = 0
    /// Real time or freewheel: how the media time moves and pictures are picked.
    let pacing: any Pacing

    init(pacing: any Pacing = RealTimePacing()) { self.pacing = pacing }

    /// Lets audio drive the clock (nil, or an output that cannot tell time: the monotonic clock).
    func follow(_ output: AudioOutput?) {
        lock.lock(); audio = output?.drivesClock == true ? output : nil; lock.unlock()
    }

    /// The media time at `t`, frozen or running.
    func time(at t: HostTime = .now) -> Double {
        if let own = pacing.ownTime { return own }
        lock.lock()
        if let frozen = frozenAt { lock.unlock(); return frozen }
        lock.unlock()
        return running(at: t) ?? frozenOrZero
    }

    private var frozenOrZero: Double { lock.lock(); defer { lock.unlock() }; return frozenAt ?? basePts }

    /// The media time at `t` if the clock runs; nil while frozen.
    func running(at t: HostTime) -> Double? {
        if pacing.ownTime != nil { return nil }
        lock.lock()
        guard frozenAt == nil else { lock.unlock(); return nil }
        let output = audio
        lock.unlock()
        // The device's report wins; the monotonic line is re-based on it so that it can take
        // over smoothly if the device goes away (audio ended before the pictures did).
        if let output {
            guard let reported = output.position(at: t) else {
                lock.lock(); defer { lock.unlock() }
                return frozenAt == nil ? basePts : nil
            }
            lock.lock()
            defer { lock.unlock() }
            guard frozenAt == nil else { return nil }
            let position = max(reported + audioDelay, runStart)
            basePts = position
            baseHost = t
            return position
        }
        lock.lock()
        defer { lock.unlock() }
        guard frozenAt == nil else { return nil }
        return basePts + t.seconds(since: baseHost) * speed
    }

    /// The host time at which the running clock reaches media time `pts` at its present rate
    /// (now when it is already there); nil while it is frozen or its pacing keeps the media
    /// time itself (freewheel: the media time moves with decoding, not with time). What waits
    /// for a media time sleeps until then instead of looking every few milliseconds.
    func hostTime(reaching pts: Double) -> HostTime? {
        let now = HostTime.now
        guard let time = running(at: now) else { return nil }
        lock.lock()
        let rate = max(speed, 0.01)
        lock.unlock()
        return now.adding(seconds: max(0, (pts - time) / rate))
    }

    /// Like `hostTime(reaching:)` for sound at media time `pts`: the moment the device plays it
    /// (the clock runs `audioDelay` ahead of what is heard while a device drives it).
    func hostTime(hearing pts: Double) -> HostTime? {
        lock.lock()
        let delay = audio != nil ? audioDelay : 0
        lock.unlock()
        return hostTime(reaching: pts + delay)
    }

    /// Changes the monotonic line's rate from now on, continuing from where it is.
    func setSpeed(_ newSpeed: Double) {
        let now = HostTime.now
        let current = running(at: now)
        lock.lock()
        if let current, audio == nil {
            basePts = current
            baseHost = now
        }
        speed = newSpeed
        lock.unlock()
    }

    func setAudioDelay(_ seconds: Double) {
        lock.lock(); audioDelay = seconds; lock.unlock()
    }

    var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return frozenAt == nil }

    /// Stops the clock at its current value (pause, stall).
    func freeze() {
        let now = time(at: .now)
        lock.lock(); frozenAt = now; lock.unlock()
    }

    /// Stops the clock at `pts` (seek, step).
    func set(_ pts: Double) {
        lock.lock(); frozenAt = pts; basePts = pts; lock.unlock()
        pacing.clockSet(to: pts)
    }

    /// Starts the clock from its frozen value.
    func run() {
        lock.lock()
        if let frozen = frozenAt {
            basePts = frozen
            runStart = frozen
            baseHost = .now
            frozenAt = nil
        }
        lock.unlock()
    }
}
