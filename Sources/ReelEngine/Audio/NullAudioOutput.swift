import Foundation

/// Silent output for when no sound server answers (or `--audio null`): consumes the FIFO in
/// step with the monotonic clock so decoding keeps pace, and never claims the clock itself.
/// How fast it takes samples is the clock's pacing (freewheeling: as fast as they come). Lent
/// by the player's `SoundDevice`, it takes a new FIFO and clock each time (`adopt`), and so any
/// format: it plays nothing.
/// Threading: its own thread consumes; the other methods from any thread.
final class NullAudioOutput: AudioOutput, @unchecked Sendable {
    // Safe: `thread` is set in init and cleared only by `close`, from the thread that owns
    // the output; everything else the consumer reads is behind `lent` and `started`.
    let kind = "null"
    let drivesClock = false
    let underruns = 0
    /// The FIFO and clock of the session borrowing the output.
    private let lent: Locked<(fifo: AudioFifo, clock: PlaybackClock)>
    /// Like a device, it takes nothing between a pause or flush and the next start: the control
    /// thread decides where playback starts before any sample is consumed. The consumer sleeps
    /// on it meanwhile.
    private let started = Gate()
    private var thread: EngineThread?

    init(fifo: AudioFifo, clock: PlaybackClock) {
        lent = Locked((fifo, clock))
        thread = EngineThread(name: "reel.audio.null") { [lent, started] in
            var capacity = 0
            var scratch: UnsafeMutablePointer<Float>?
            defer { scratch?.deallocate() }
            // Started, it takes samples as the clock passes them: a genuinely timed look every
            // `silentPollInterval`, as a device's period would be.
            while started.waitUntilOpen() {
                let (fifo, clock) = lent.current
                let needed = 4096 * fifo.format.channels
                if needed > capacity {
                    scratch?.deallocate()
                    scratch = .allocate(capacity: needed)
                    capacity = needed
                }
                if let scratch { clock.pacing.consumeSilently(fifo, clock: clock, scratch: scratch) }
                usleep(clock.pacing.silentPollInterval)
            }
        }
    }

    deinit { close() }

    var format: AudioFormat { lent.current.fifo.format }
    func start() { started.set(open: true) }
    func pause() { started.set(open: false) }
    func flush() { started.set(open: false) }
    func position(at t: HostTime) -> Double? { nil }
    /// The consumer thread only takes samples once the clock has passed them.
    var hasPlayedEverything: Bool { lent.current.fifo.isDrained }
    func setVolume(_ volume: Double, muted: Bool) {}
    func isReading(_ fifo: AudioFifo) -> Bool { lent.current.fifo === fifo }

    /// Lent to another session: nothing is taken from `fifo` before the next start.
    func adopt(_ fifo: AudioFifo, clock: PlaybackClock) {
        started.set(open: false)
        lent.withLock { $0 = (fifo, clock) }
    }

    func close() {
        started.end()
        if let thread, !thread.isCurrent { thread.join() }
        thread = nil
    }
}

/// Whether the silent output's consumer may take samples; it sleeps while it may not.
/// Threading: any thread.
private final class Gate: @unchecked Sendable {
    // Safe: `open` and `ended` are guarded by `condition`.
    private let condition = NSCondition()
    private var open = false
    private var ended = false

    func set(open: Bool) {
        condition.lock()
        self.open = open
        condition.broadcast()
        condition.unlock()
    }

    /// Ends every wait for good (the output closes).
    func end() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// Sleeps while closed; false once ended.
    func waitUntilOpen() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !open && !ended { condition.wait() }
        return !ended
    }
}
