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
    private let stopped = Locked(false)
    /// Like a device, it takes nothing between a pause or flush and the next start: the control
    /// thread decides where playback starts before any sample is consumed.
    private let started = Locked(false)
    private var thread: EngineThread?

    init(fifo: AudioFifo, clock: PlaybackClock) {
        lent = Locked((fifo, clock))
        thread = EngineThread(name: "reel.audio.null") { [lent, stopped, started] in
            var capacity = 0
            var scratch: UnsafeMutablePointer<Float>?
            defer { scratch?.deallocate() }
            while !stopped.current {
                let (fifo, clock) = lent.current
                let needed = 4096 * fifo.format.channels
                if needed > capacity {
                    scratch?.deallocate()
                    scratch = .allocate(capacity: needed)
                    capacity = needed
                }
                if started.current, let scratch { clock.pacing.consumeSilently(fifo, clock: clock, scratch: scratch) }
                usleep(clock.pacing.silentPollInterval)
            }
        }
    }

    deinit { close() }

    var format: AudioFormat { lent.current.fifo.format }
    func start() { started.withLock { $0 = true } }
    func pause() { started.withLock { $0 = false } }
    func flush() { started.withLock { $0 = false } }
    func position(at t: HostTime) -> Double? { nil }
    /// The consumer thread only takes samples once the clock has passed them.
    var hasPlayedEverything: Bool { lent.current.fifo.isDrained }
    func setVolume(_ volume: Double, muted: Bool) {}
    func isReading(_ fifo: AudioFifo) -> Bool { lent.current.fifo === fifo }

    /// Lent to another session: nothing is taken from `fifo` before the next start.
    func adopt(_ fifo: AudioFifo, clock: PlaybackClock) {
        started.withLock { $0 = false }
        lent.withLock { $0 = (fifo, clock) }
    }

    func close() {
        stopped.withLock { $0 = true }
        if let thread, !thread.isCurrent { thread.join() }
        thread = nil
    }
}
