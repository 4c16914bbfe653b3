/// The decoded pictures around the one on screen, as one contiguous strip in display order:
/// `past` (already taken by the presentation, the last of them on screen) and `future` (decoded,
/// waiting). Seeks and back steps that land inside the strip need no decoding at all; the strip
/// is only contiguous while nothing between its frames was skipped, so whoever breaks that
/// (a seek, a decoder that skips frames) clears `past`.
/// Threading: a value type; `VideoFrameQueue` keeps it under its lock.
struct FrameTape {
    private(set) var past: [VideoFrame] = []
    private(set) var future: [VideoFrame] = []
    private var pastBytes = 0
    /// How much of the past is kept: a GOP's worth while paused (back steps), only the picture
    /// on screen while playing (playback holds no more pictures than it did without a past).
    var limit = Limit.paused

    struct Limit: Equatable {
        var frames: Int
        var bytes: Int
        /// 64 pictures, at most about 200 MB (64 at 1080p; fewer for bigger pictures).
        static let paused = Limit(frames: 64, bytes: 200 << 20)
        static let playing = Limit(frames: 1, bytes: 200 << 20)
    }

    var futureCount: Int { future.count }
    var firstFuture: VideoFrame? { future.first }

    mutating func appendFuture(_ frame: VideoFrame) { future.append(frame) }

    /// The next waiting picture moves to the past (it is about to be on screen).
    mutating func takeFuture() -> VideoFrame? {
        guard !future.isEmpty else { return nil }
        let frame = future.removeFirst()
        appendPast(frame)
        return frame
    }

    /// A picture decoded only to be remembered (filling the past before a back step's landing).
    mutating func appendPast(_ frame: VideoFrame) {
        past.append(frame)
        pastBytes += frame.byteCount
        trim()
    }

    mutating func setLimit(_ newLimit: Limit) {
        limit = newLimit
        trim()
    }

    /// Keeps the newest pictures within the limit; the one on screen (the last) always stays.
    private mutating func trim() {
        var drop = 0
        var bytes = pastBytes
        while past.count - drop > 1 && (past.count - drop > limit.frames || bytes > limit.bytes) {
            bytes -= past[drop].byteCount
            drop += 1
        }
        if drop > 0 {
            past.removeFirst(drop)
            pastBytes = bytes
        }
    }

    mutating func clearPast() { past.removeAll(); pastBytes = 0 }

    /// Everything waiting becomes past (a seek beyond it that keeps what it decodes on the way).
    mutating func futureIntoPast() {
        let waiting = future
        future.removeAll()
        for frame in waiting { appendPast(frame) }
    }
    mutating func clearFuture() { future.removeAll() }
    mutating func clear() { clearPast(); clearFuture() }

    /// End of the strip: where the decoder's next picture starts.
    var end: Double? {
        guard let last = future.last ?? past.last else { return nil }
        return last.pts + max(last.duration, 0)
    }

    /// The strip's position of the picture shown at `target`: the last one starting at or
    /// before it, provided the next one starts after it (or, for the last picture of the
    /// strip, its duration covers it or `isWholeStream` says nothing follows). The strip has to
    /// include the picture on screen (`past` not empty) to be trusted.
    func position(of target: Double, isWholeStream: Bool) -> Int? {
        guard !past.isEmpty else { return nil }
        let count = past.count + future.count
        func frame(_ i: Int) -> VideoFrame { i < past.count ? past[i] : future[i - past.count] }
        let epsilon = 1e-6
        guard target >= frame(0).pts - epsilon else { return nil }
        var low = 0, high = count   // first picture starting after the target
        while low < high {
            let mid = (low + high) / 2
            if frame(mid).pts <= target + epsilon { low = mid + 1 } else { high = mid }
        }
        let i = low - 1
        guard i >= 0 else { return nil }
        if i == count - 1 {
            let last = frame(i)
            guard isWholeStream || target < last.pts + max(last.duration, 0) - epsilon else { return nil }
        }
        return i
    }

    /// Puts the picture at strip position `i` on screen: it and what precedes it become the
    /// past, what follows it the future.
    mutating func move(to i: Int) -> VideoFrame {
        let all = past + future
        past = Array(all[...i])
        future = Array(all[(i + 1)...])
        pastBytes = past.reduce(0) { $0 + $1.byteCount }
        trim()
        return all[i]
    }

    /// The picture before the one on screen, made current; nil when the past holds no other.
    mutating func stepBack() -> VideoFrame? {
        guard past.count >= 2 else { return nil }
        return move(to: past.count - 2)
    }
}
