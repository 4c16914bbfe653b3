/// What was written to the stream since the last flush, as media time: runs of bytes that
/// each start at a media time and go on at one tempo. The output asks it which media time a
/// byte offset (as heard) stands for. Gapless seams and speed changes start new runs.
/// Threading: a value type; PulseAudioOutput keeps it under the mainloop lock.
struct WrittenTimeline {
    /// One run: from `offset` bytes after the flush, media time `pts` on, `speed` media
    /// seconds per second of sound.
    struct Run: Equatable {
        let offset: Int64
        let pts: Double
        let speed: Double
    }

    let bytesPerFrame: Int
    let sampleRate: Int
    private(set) var runs: [Run] = []
    /// Bytes written since the flush.
    private(set) var bytes: Int64 = 0
    /// Whether anything was written since the flush.
    private(set) var hasWritten = false
    /// The media time just after the last sample written, and the tempo it was written at.
    /// Kept across a flush: a gap is measured from what was written last.
    private(set) var endPts = 0.0
    private(set) var speed = 1.0

    init(bytesPerFrame: Int, sampleRate: Int) {
        self.bytesPerFrame = bytesPerFrame
        self.sampleRate = sampleRate
    }

    private var bytesPerSecond: Double { Double(sampleRate * bytesPerFrame) }

    /// `frames` frames written, starting at media time `startPts` at `speed`. A new run begins
    /// where the media time jumps or the tempo changes.
    mutating func record(frames: Int, startPts: Double, speed: Double) {
        if !hasWritten || abs(startPts - endPts) > 0.0005 || speed != self.speed {
            runs.append(Run(offset: bytes, pts: startPts, speed: speed))
        }
        hasWritten = true
        bytes += Int64(frames * bytesPerFrame)
        endPts = startPts + Double(frames) * speed / Double(sampleRate)
        self.speed = speed
    }

    /// The next item's sound follows here, from its media time `start` (gapless).
    mutating func continueAt(_ start: Double) {
        endPts = start
        runs.append(Run(offset: bytes, pts: start, speed: speed))
    }

    /// Forgets what was written (a flush): the next write starts a new timeline.
    mutating func reset() {
        runs.removeAll()
        bytes = 0
        hasWritten = false
    }

    /// The media time of the byte `offset` bytes after the flush.
    func pts(atOffset offset: Int64) -> Double? {
        guard let run = run(at: offset) else { return nil }
        return run.pts + Double(offset - run.offset) * run.speed / bytesPerSecond
    }

    /// The tempo the byte `offset` bytes after the flush was written at.
    func speed(atOffset offset: Int64) -> Double { run(at: offset)?.speed ?? 1 }

    private func run(at offset: Int64) -> Run? {
        runs.last(where: { $0.offset <= offset }) ?? runs.first
    }
}
