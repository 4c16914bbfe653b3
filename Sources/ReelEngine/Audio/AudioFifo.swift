import Foundation

/// Decoded, device-format PCM between the audio decoder and the device, each sample tied to its
/// media time. It keeps what the device already took for a while, so that after a device flush
/// (frame step) playback can rewind to the exact sample instead of losing the device's buffer.
/// Threading: `append`/`markEndOfStream` from the audio decoder; `read`/`peekPts` from the
/// device side; `reset`/`rewind`/`discard` from the control thread. All state is locked.
final class AudioFifo: @unchecked Sendable {
    let format: AudioFormat
    // Safe: all state below is guarded by `condition`.
    private let condition = NSCondition()
    private let ring: UnsafeMutablePointer<Float>
    private let capacity: Int           // frames
    private let unreadLimit: Int        // frames
    private var historyStart: Int64 = 0 // oldest frame still held
    private var readPos: Int64 = 0      // next frame for the device
    private var writePos: Int64 = 0     // end of data
    /// Where the media time jumps or the tempo changes: from frame `start` on, each frame is
    /// `speed` / sample rate seconds of media (time-stretched audio covers more per frame).
    private var segments: [(start: Int64, pts: Double, speed: Double)] = []
    /// The seek serial whose samples are accepted (`SeekCoordinator.serial`): set by `reset` on
    /// the control thread, compared against every append so a seek drops older samples.
    private var serial = 0
    /// The serial whose last sample the decoder has delivered (marks the end, not an order).
    private var endOfStreamSerial = -1
    private var aborted = false
    /// An A-B loop's end: the device reads nothing from this media time on, and the FIFO
    /// counts as drained there, so a chained FIFO follows its last sample (see `cut(at:)`).
    private var cutPts: Double?
    /// The serial already announced as ready, so each landing hears of it once.
    private var readyAnnounced = -1
    private let readyThreshold: Int
    /// A full FIFO takes the decoder's next sound only once this much has been played from it
    /// (a quarter second), so that the decoder runs in bursts and sleeps in between, instead of
    /// waking for every few milliseconds the device takes.
    private let refillFrames: Int
    /// Called outside the lock: data arrived (so a starving device can be fed).
    var dataArrived: (@Sendable () -> Void)?
    /// Called outside the lock once per serial when enough is buffered to start (or it ended).
    private let ready: @Sendable (_ serial: Int) -> Void
    /// Told of sound appended (when the control loop asked) and of the end.
    private let progress: DecodeProgress?

    init(format: AudioFormat, bufferSeconds: Double = 1.0, historySeconds: Double = 1.0,
         readySeconds: Double = 0.1, progress: DecodeProgress? = nil, ready: @escaping @Sendable (Int) -> Void) {
        self.progress = progress
        self.format = format
        unreadLimit = Int(Double(format.sampleRate) * bufferSeconds)
        capacity = unreadLimit + Int(Double(format.sampleRate) * historySeconds)
        readyThreshold = Int(Double(format.sampleRate) * readySeconds)
        refillFrames = Int(Double(format.sampleRate) * min(0.25, bufferSeconds / 4))
        ring = .allocate(capacity: capacity * format.channels)
        self.ready = ready
    }

    deinit { ring.deallocate() }

    private var channels: Int { format.channels }

    private func pts(at position: Int64) -> Double? {
        guard let segment = segments.last(where: { $0.start <= position }) ?? segments.first else { return nil }
        return segment.pts + Double(position - segment.start) * segment.speed / Double(format.sampleRate)
    }

    private func speed(at position: Int64) -> Double {
        (segments.last(where: { $0.start <= position }) ?? segments.first)?.speed ?? 1
    }

    /// Queues `frames` frames starting at media time `pts`, each `speed`/rate seconds of media;
    /// waits while the buffer is full (until `refillFrames` were played from it). False when
    /// the data is stale (a seek happened) or the FIFO is gone.
    @discardableResult
    func append(_ samples: UnsafePointer<Float>, frames: Int, pts: Double, speed: Double = 1, serial: Int) -> Bool {
        guard frames > 0 else { return true }
        condition.lock()
        if Int(writePos - readPos) + frames > unreadLimit {
            while serial == self.serial && !aborted
                    && Int(writePos - readPos) + max(frames, refillFrames) > unreadLimit && writePos > readPos {
                condition.wait()
            }
        }
        guard serial == self.serial && !aborted else { condition.unlock(); return false }
        // Contiguous unless the timestamps jump by more than 20 ms or the tempo changes.
        if let expected = self.pts(at: writePos), abs(expected - pts) <= 0.02, !segments.isEmpty,
           self.speed(at: writePos) == speed {
        } else {
            segments.append((writePos, pts, speed))
        }
        var remaining = frames
        var source = samples
        while remaining > 0 {
            let slot = Int(writePos % Int64(capacity))
            let run = min(remaining, capacity - slot)
            (ring + slot * channels).update(from: source, count: run * channels)
            source += run * channels
            remaining -= run
            writePos += Int64(run)
        }
        historyStart = max(historyStart, writePos - Int64(capacity))
        pruneSegments()
        let announce = readyAnnounced != serial && Int(writePos - readPos) >= readyThreshold
        if announce { readyAnnounced = serial }
        condition.unlock()
        dataArrived?()
        if announce { ready(serial) }
        progress?.decoded()
        return true
    }

    private func pruneSegments() {
        while segments.count > 1 && segments[1].start <= historyStart { segments.removeFirst() }
    }

    func markEndOfStream(serial: Int) {
        condition.lock()
        guard serial == self.serial else { condition.unlock(); return }
        endOfStreamSerial = serial
        let announce = readyAnnounced != serial
        if announce { readyAnnounced = serial }
        condition.unlock()
        dataArrived?()
        if announce { ready(serial) }
        progress?.ended()
    }

    /// Media time of the next frame the device would take; nil when nothing is waiting.
    func peekPts() -> Double? {
        condition.lock()
        defer { condition.unlock() }
        if let cut = cutPosition, readPos >= cut { return nil }
        return readPos < writePos ? pts(at: readPos) : nil
    }

    /// Copies up to `maxFrames` contiguous frames (never across a timestamp jump or tempo
    /// change). Returns the frame count, the media time of the first one, and the media
    /// seconds each frame stands for, times the sample rate (the tempo).
    func read(into destination: UnsafeMutablePointer<Float>, maxFrames: Int) -> (frames: Int, pts: Double, speed: Double) {
        condition.lock()
        defer { condition.unlock() }
        guard readPos < writePos, let startPts = pts(at: readPos) else { return (0, 0, 1) }
        let speed = self.speed(at: readPos)
        var limit = min(maxFrames, Int(writePos - readPos))
        if let cut = cutPosition {
            guard cut > readPos else { return (0, 0, 1) }
            limit = min(limit, Int(cut - readPos))
        }
        if let next = segments.first(where: { $0.start > readPos }) {
            limit = min(limit, Int(next.start - readPos))
        }
        var copied = 0
        while copied < limit {
            let slot = Int(readPos % Int64(capacity))
            let run = min(limit - copied, capacity - slot)
            (destination + copied * channels).update(from: ring + slot * channels, count: run * channels)
            copied += run
            readPos += Int64(run)
        }
        // A decoder waiting for room goes on once a refill's worth was taken.
        if Int(writePos - readPos) + refillFrames <= unreadLimit { condition.broadcast() }
        return (copied, startPts, speed)
    }

    /// Moves the read position to media time `pts`, back into what the device already took if
    /// needed. False when that moment is no longer held.
    @discardableResult
    func rewind(to pts: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let first = self.pts(at: historyStart), pts >= first - 0.001 else { return false }
        var position = historyStart
        // The segment holding `pts` may have begun before the oldest frame still held.
        if let segment = segments.last(where: { $0.pts <= pts }) {
            position = segment.start + Int64(((pts - segment.pts) / segment.speed * Double(format.sampleRate)).rounded())
        }
        guard position <= writePos else { return false }
        readPos = max(historyStart, position)
        condition.broadcast()
        return true
    }

    /// Drops waiting frames before media time `pts`.
    func discard(before pts: Double) {
        condition.lock()
        defer { condition.unlock() }
        while readPos < writePos, let p = self.pts(at: readPos), p < pts - 0.5 / Double(format.sampleRate) {
            let skip = Int64(((pts - p) / speed(at: readPos) * Double(format.sampleRate)).rounded(.up))
            let boundary = segments.first(where: { $0.start > readPos })?.start ?? writePos
            readPos = min(readPos + max(skip, 1), boundary, writePos)
        }
        condition.broadcast()
    }

    /// Empties everything for a new seek serial.
    func reset(serial: Int) {
        condition.lock()
        self.serial = serial
        historyStart = 0; readPos = 0; writePos = 0
        segments.removeAll()
        endOfStreamSerial = -1
        condition.broadcast()
        condition.unlock()
    }

    func abort() {
        condition.lock()
        aborted = true
        condition.broadcast()
        condition.unlock()
    }

    var unreadSeconds: Double {
        condition.lock(); defer { condition.unlock() }
        return Double(writePos - readPos) / Double(format.sampleRate)
    }

    /// The media time just after the last sample decoded so far; nil when none is waiting.
    var bufferedEndPts: Double? {
        condition.lock(); defer { condition.unlock() }
        return readPos < writePos ? pts(at: writePos) : nil
    }

    /// The media time just after the last sample, once the decoder has reached the end.
    var endPts: Double? {
        condition.lock(); defer { condition.unlock() }
        guard endOfStreamSerial == serial else { return nil }
        return pts(at: writePos)
    }

    var reachedEnd: Bool { condition.lock(); defer { condition.unlock() }; return endOfStreamSerial == serial }

    /// The decoder is done and the device has taken everything.
    var isDrained: Bool {
        condition.lock(); defer { condition.unlock() }
        if let cut = cutPosition, readPos >= cut { return true }
        return endOfStreamSerial == serial && readPos == writePos
    }

    /// Ends what the device reads at media time `pts` (nil: reads on to the real end). The
    /// decoder's sound beyond it stays, unread, so taking the cut back loses nothing.
    func cut(at pts: Double?) {
        condition.lock()
        cutPts = pts
        condition.unlock()
        dataArrived?()
    }

    /// The frame where the cut lies (lock held): in the segment its media time falls into.
    private var cutPosition: Int64? {
        guard let cutPts, let segment = segments.last(where: { $0.pts <= cutPts }) ?? segments.first else { return nil }
        return segment.start + Int64(((cutPts - segment.pts) / segment.speed * Double(format.sampleRate)).rounded())
    }
}
