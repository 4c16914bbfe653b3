/// A sound device the engine feeds from an `AudioFifo`. The player owns one for its whole life
/// (`SoundDevice`) and lends it to the session playing: the borrower is the session whose FIFO
/// it is reading (`isReading`), and only the borrower starts, pauses or flushes it.
/// Threading: every method may be called from the control thread; `position(at:)` also from the
/// presenting thread. Implementations lock internally.
protocol AudioOutput: AnyObject, Sendable {
    var format: AudioFormat { get }
    /// A readable name for diagnostics ("pulse", "null").
    var kind: String { get }
    /// Starts or resumes playing what the FIFO holds.
    func start()
    /// Pauses without dropping what the device holds.
    func pause()
    /// Drops what the device holds; the FIFO's read position decides what plays next.
    func flush()
    /// Whether `position(at:)` is the master clock. Outputs that cannot tell time leave the
    /// clock to the monotonic clock.
    var drivesClock: Bool { get }
    /// The media time audible at `t`; nil while the device cannot say yet (the clock holds).
    func position(at t: HostTime) -> Double?
    /// The FIFO has ended and the device has played all of it.
    var hasPlayedEverything: Bool { get }
    /// Times the device ran dry while sound was meant to play (audible gaps; a busy machine).
    var underruns: Int { get }
    func setVolume(_ volume: Double, muted: Bool)
    /// Whether `fifo` is the one being played: its session is the borrower.
    func isReading(_ fifo: AudioFifo) -> Bool
    /// From now on `fifo` is this output's and `clock` the clock of its session: the chained one
    /// after its seam was heard (nothing changes), or any other (what was queued stops and the
    /// next start plays `fifo`). This is how the output is lent.
    func adopt(_ fifo: AudioFifo, clock: PlaybackClock)
    /// The end of the player's life (or of the stream's format): only `SoundDevice` calls it.
    func close()
    /// The name the sound server shows for it (the media playing); outputs without one ignore it.
    func rename(_ name: String)

    // Gapless: the next item's sound follows the current one's last sample in the same stream.

    /// Whether `chain` can work at all (a stream that plays what it is given, in order).
    var canChain: Bool { get }
    /// Reads `fifo` right after the current FIFO has ended; its first sound is media time
    /// `start` (earlier silence is kept as silence). False when this output cannot.
    func chain(_ fifo: AudioFifo, startingAt start: Double) -> Bool
    /// Undoes `chain` (the current item was sought, paused or closed before its end).
    func unchain()
    /// The first sample of the chained FIFO has been heard.
    var seamHeard: Bool { get }
}

extension AudioOutput {
    func rename(_ name: String) {}
    var canChain: Bool { false }
    func chain(_ fifo: AudioFifo, startingAt start: Double) -> Bool { false }
    func unchain() {}
    var seamHeard: Bool { false }
}
