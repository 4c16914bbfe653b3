import CPulse

/// Where each sample goes in the stream, so that sound never starts or stops mid-wave. The
/// stream is never flushed: its write index (counted here) always says where each sample sits.
/// A new timeline fades in, placed after any fade-out still queued and not behind what is
/// audible; a stop writes over what is queued beyond a point — the same sound fading out, then
/// silence — instead of dropping it.
/// Threading: used only with the stream's mainloop lock held.
struct StreamPlacement {
    let format: AudioFormat
    /// The server's write index, in frames since the stream was created.
    private(set) var writeIndex: Int64 = 0
    /// Where the current timeline starts, in stream frames.
    private(set) var timelineStart: Int64 = 0
    /// After a stop: the earliest stream frame the next sound may start at (after the fade).
    private var nextStart: Int64?
    /// What was written lately, to fade out what a stop cuts off.
    private let written: WrittenAudio
    private let fadeFrames: Int
    /// Frames of the next sound written that still fade in.
    private var fadeInLeft: Int

    init(format: AudioFormat, fadeSeconds: Double) {
        self.format = format
        written = WrittenAudio(channels: format.channels, frames: format.sampleRate / 2)
        fadeFrames = max(1, Int(Double(format.sampleRate) * fadeSeconds))
        fadeInLeft = fadeFrames
    }

    /// The next sound written fades in again.
    mutating func fadeInNext() { fadeInLeft = fadeFrames }

    /// Fades in the start of the sound in `samples`, if it is still within the fade.
    mutating func fadeIn(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
        guard frames > 0, fadeInLeft > 0 else { return }
        let n = min(frames, fadeInLeft)
        Fade.applyIn(samples, frames: n, channels: format.channels, done: fadeFrames - fadeInLeft, length: fadeFrames)
        fadeInLeft -= n
    }

    /// Starts a new timeline at `start` (from `firstIndex`). When nothing is queued the stream
    /// has run dry and the sink renders silence ahead for it, so the very first samples may be
    /// swallowed when it picks up: `leadIn` frames of silence go first, not the fade-in.
    mutating func beginTimeline(_ stream: OpaquePointer, at start: Int64, leadIn: Int) {
        var start = start
        if start >= writeIndex {
            writeSilence(stream, frames: leadIn, at: start)
            start += Int64(leadIn)
        }
        timelineStart = start
        writeIndex = start
        nextStart = nil
    }

    /// Where the first sound of a new timeline goes: after the last fade-out, and not behind
    /// `audible` (the frame audible now, if known) plus `margin` frames.
    func firstIndex(audible: Int64?, margin: Int64) -> Int64 {
        var index = nextStart ?? writeIndex
        if let audible { index = max(index, min(writeIndex, audible + margin)) }
        return index
    }

    /// Writes `frames` frames from `data` (libpulse's buffer from `pa_stream_begin_write`) at
    /// the write index: placed exactly when it starts a timeline, else right after the last.
    mutating func write(_ stream: OpaquePointer, _ data: UnsafeMutableRawPointer, frames: Int, startsTimeline: Bool) {
        // Kept before writing: the buffer belongs to libpulse once written.
        written.append(data.assumingMemoryBound(to: Float.self), frames: frames, at: writeIndex)
        pa_stream_write(stream, data, frames * format.bytesPerFrame, nil,
                        startsTimeline ? writeIndex * Int64(format.bytesPerFrame) : 0,
                        startsTimeline ? PA_SEEK_ABSOLUTE : PA_SEEK_RELATIVE)
        writeIndex += Int64(frames)
    }

    /// Writes, from stream frame `cut` up to the write index, the sound that was there fading
    /// out and then silence, and notes where the next sound may start.
    mutating func overwrite(_ stream: OpaquePointer, from cut: Int64) {
        guard cut < writeIndex else { nextStart = writeIndex; return }
        let channels = format.channels
        let total = Int(writeIndex - cut)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: total * channels)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0, count: total * channels)
        let faded = written.copy(from: cut, frames: min(fadeFrames, total), into: buffer)
        Fade.applyOut(buffer, frames: faded, channels: channels)
        pa_stream_write(stream, buffer, total * format.bytesPerFrame, nil, cut * Int64(format.bytesPerFrame), PA_SEEK_ABSOLUTE)
        nextStart = cut + Int64(max(faded, 1))
    }

    /// Writes `frames` frames of silence at stream frame `index`.
    private mutating func writeSilence(_ stream: OpaquePointer, frames: Int, at index: Int64) {
        guard frames > 0 else { return }
        let count = frames * format.channels
        let zeros = UnsafeMutablePointer<Float>.allocate(capacity: count)
        defer { zeros.deallocate() }
        zeros.initialize(repeating: 0, count: count)
        pa_stream_write(stream, zeros, frames * format.bytesPerFrame, nil, index * Int64(format.bytesPerFrame), PA_SEEK_ABSOLUTE)
        writeIndex = index + Int64(frames)
    }
}
