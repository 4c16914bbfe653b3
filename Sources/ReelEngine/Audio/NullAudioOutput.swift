import Foundation

/// Silent output for when no sound server answers (or `--audio null`): consumes the FIFO in
/// step with the monotonic clock so decoding keeps pace, and never claims the clock itself.
/// How fast it takes samples is the clock's pacing (freewheeling: as fast as they come).
/// Threading: its own thread consumes; the other methods from any thread.
final class NullAudioOutput: AudioOutput, @unchecked Sendable {
    let format: AudioFormat
    let kind = "null"
    let drivesClock = false
    let underruns = 0
    private let fifo: AudioFifo
    private let clock: PlaybackClock
    private let stopped = Locked(false)
    /// Like a device, it takes nothing between a pause or flush and the next start: the control
    /// thread decides where playback starts before any sample is consumed.
    private let started = Locked(false)
    private var thread: EngineThread?

    init(fifo: AudioFifo, clock: PlaybackClock) {
        self.fifo = fifo
        self.clock = clock
        format = fifo.format
        thread = EngineThread(name: "reel.audio.null") { [fifo, clock, stopped, started] in
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 4096 * fifo.format.channels)
            defer { scratch.deallocate() }
            while !stopped.current {
                if started.current { clock.pacing.consumeSilently(fifo, clock: clock, scratch: scratch) }
                usleep(clock.pacing.silentPollInterval)
            }
        }
    }

    deinit { close() }

    func start() { started.withLock { $0 = true } }
    func pause() { started.withLock { $0 = false } }
    func flush() { started.withLock { $0 = false } }
    func position(at t: HostTime) -> Double? { nil }
    /// The consumer thread only takes samples once the clock has passed them.
    var hasPlayedEverything: Bool { fifo.isDrained }
    func setVolume(_ volume: Double, muted: Bool) {}

    func close() {
        stopped.withLock { $0 = true }
        if let thread, !thread.isCurrent { thread.join() }
        thread = nil
    }
}
