import CPulse
import Foundation

/// Plays the FIFO through a PulseAudio playback stream. The media time audible now comes from the
/// server's own timing report: how far it has read into the stream, minus what still sits in the
/// sink, extrapolated only while the server says the stream is really playing. libpulse's
/// interpolation is not used: it extrapolates from the moment of uncorking even when the sink
/// starts late, and then corrects with a jump, which shows as a stutter.
///
/// Sound never stops or starts mid-wave (a click). Whatever starts a new timeline fades in over
/// a few milliseconds; pausing or seeking while sound plays writes over what is queued beyond
/// the moment now audible — the same sound fading out, then silence — instead of flushing it,
/// and pausing resumes from the sample where the fade began. The stream is never flushed, so
/// its write index (counted here) always says where each sample sits.
/// Threading: public methods from any thread; the write callback runs on the mainloop thread.
/// All stream state is guarded by the mainloop lock.
final class PulseAudioOutput: AudioOutput, @unchecked Sendable {
    // Safe: every mutable field is read and written with the mainloop lock held.
    let format: AudioFormat
    let kind = "pulse"
    let drivesClock = true
    let connection: PulseConnection
    private var fifo: AudioFifo
    /// Gapless: the next item's FIFO, read once `fifo` is drained (see `chain`).
    private var chained: (fifo: AudioFifo, start: Double)?
    /// After the switch to the chained FIFO: the one it replaced (to go back to if the chain
    /// is undone before the seam is heard) and where its first byte sits since the flush.
    private var seam: (previous: AudioFifo, offset: Int64)?
    private var stream: OpaquePointer?
    private var writtenEndPts = 0.0
    /// The tempo of the last samples written (media seconds per second of sound).
    private var writtenSpeed = 1.0
    private var hasWritten = false
    private var corked = true
    /// Between a flush (or creation) and the next start nothing is written: the control
    /// thread first decides where playback starts and trims the FIFO to it.
    private var holding = true
    private var underflowed = false
    private var underrunCount = 0
    var underruns: Int { connection.locked { underrunCount } }
    private var starving = false
    private var volume = 1.0
    private var muted = false
    /// Media times of what was written since the last flush, keyed by byte offset from the flush.
    private var segments: [(offset: Int64, pts: Double, speed: Double)] = []
    private var bytesSinceFlush: Int64 = 0
    private var lastTimingRequest = HostTime(nanoseconds: 0)
    /// Timing requests sent and answered (answers arrive in order). Reports are trusted only
    /// once the request made at the last start or flush is answered: older ones describe a
    /// stream that no longer exists.
    private var timingRequests = 0
    private var timingReplies = 0
    private var trustedFrom = 0
    /// The server's write index, in frames since the stream was created.
    private var writeIndex: Int64 = 0
    /// Where the current timeline (`segments`, `bytesSinceFlush`) starts, in stream frames.
    private var timelineStart: Int64 = 0
    /// After a soft stop: the earliest stream frame the next sound may start at (after the fade).
    private var nextStart: Int64?
    /// What was written lately, to fade out what a stop cuts off.
    private let written: WrittenAudio
    /// Frames of the next sound written that still fade in.
    private var fadeInLeft: Int
    private let fadeFrames: Int
    /// After a soft stop: the media time the sound picks up from when it starts again.
    private var resumeAt: Double?
    /// A soft stop happened and nothing was written since: the position is not reported.
    private var softStopped = false
    private var softStopTime: HostTime?
    /// Timing requests still in flight. Their callbacks point at `self`, so they are cancelled
    /// before the stream goes: libpulse itself cancels them only once the server has
    /// acknowledged the disconnect, by which time `self` may be gone.
    private var pendingTiming: [OpaquePointer] = []

    /// Server-side buffer target: long enough to ride out scheduling hiccups on a busy machine,
    /// short enough that pause and seek feel immediate.
    static let targetLatency = 0.12
    /// Fade length when sound starts or stops: below what the ear hears as a fade, long enough
    /// that the start or end of a wave is not heard as a click.
    static let fadeSeconds = 0.005
    /// How far beyond the moment audible a stop begins: the timing report is extrapolated, and
    /// the sink needs a moment to take rewritten data.
    static let stopMargin = 0.015
    /// Silence written before sound that starts on a stream that ran dry.
    static let leadIn = 0.01

    init(connection: PulseConnection, fifo: AudioFifo, name: String, device: String? = nil) throws(PlayerError) {
        self.connection = connection
        self.fifo = fifo
        format = fifo.format
        written = WrittenAudio(channels: format.channels, frames: format.sampleRate / 2)
        fadeFrames = max(1, Int(Double(format.sampleRate) * Self.fadeSeconds))
        fadeInLeft = fadeFrames
        var spec = pa_sample_spec(format: reel_pa_sample_float32ne(), rate: UInt32(format.sampleRate),
                                  channels: UInt8(format.channels))
        var map = PulseChannelMap.make(for: format)
        let bytesPerSecond = Double(format.sampleRate * format.bytesPerFrame)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max,
            tlength: UInt32(bytesPerSecond * Self.targetLatency),
            prebuf: UInt32.max,
            minreq: UInt32(bytesPerSecond * 0.02),
            fragsize: UInt32.max)
        let ok: Bool = connection.locked {
            var props: OpaquePointer? = pa_proplist_new()
            pa_proplist_sets(props, PA_PROP_MEDIA_ROLE, "video")
            pa_proplist_sets(props, PA_PROP_APPLICATION_ICON_NAME, "io.github.reel.Reel")
            stream = pa_stream_new_with_proplist(connection.context, name, &spec, &map, props)
            pa_proplist_free(props)
            props = nil
            guard let stream else { return false }
            let me = Unmanaged.passUnretained(self).toOpaque()
            pa_stream_set_state_callback(stream, { _, userdata in
                let output = Unmanaged<PulseAudioOutput>.fromOpaque(userdata!).takeUnretainedValue()
                pa_threaded_mainloop_signal(output.connection.mainloop, 0)
            }, me)
            pa_stream_set_write_callback(stream, { _, bytes, userdata in
                Unmanaged<PulseAudioOutput>.fromOpaque(userdata!).takeUnretainedValue().fill(bytes)
            }, me)
            pa_stream_set_underflow_callback(stream, { _, userdata in
                let output = Unmanaged<PulseAudioOutput>.fromOpaque(userdata!).takeUnretainedValue()
                // Running dry after a stop, or at the end, is expected; otherwise it is a gap.
                if !output.holding && !output.softStopped && !output.fifo.isDrained { output.underrunCount += 1 }
                output.underflowed = true
                output.requestTiming()
            }, me)
            pa_stream_set_started_callback(stream, { _, userdata in
                Unmanaged<PulseAudioOutput>.fromOpaque(userdata!).takeUnretainedValue().requestTiming()
            }, me)
            let flags = pa_stream_flags_t(PA_STREAM_START_CORKED.rawValue
                | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue)
            var cv = pa_cvolume()
            pa_cvolume_set(&cv, UInt32(format.channels), reel_pa_volume_norm())
            guard pa_stream_connect_playback(stream, device, &attributes, flags, &cv, nil) >= 0 else { return false }
            while true {
                let state = pa_stream_get_state(stream)
                if state == PA_STREAM_READY { return true }
                if reel_pa_stream_is_good(state) == 0 { return false }
                pa_threaded_mainloop_wait(connection.mainloop)
            }
        }
        if !ok {
            let reason = connection.locked { String(cString: pa_strerror(pa_context_errno(connection.context))) }
            close()
            throw .internalError("cannot open a sound stream: \(reason)")
        }
        fifo.dataArrived = { [weak self] in self?.feedIfStarving() }
    }

    deinit { close() }

    func close() {
        // Closing the stream drops what it holds: let a fade-out in progress be heard first
        // (a few tens of milliseconds at most), so closing mid-sound does not click.
        let fadeEnds: HostTime? = connection.locked {
            if stream != nil, !corked, !holding { softStop() }
            return softStopped ? softStopTime?.adding(seconds: Self.stopMargin + Self.fadeSeconds + 0.01) : nil
        }
        if let fadeEnds, HostTime.now < fadeEnds {
            usleep(UInt32(min(0.1, fadeEnds.seconds(since: .now)) * 1_000_000))
        }
        connection.locked {
            guard let stream else { return }
            pa_stream_set_write_callback(stream, nil, nil)
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_underflow_callback(stream, nil, nil)
            pa_stream_set_started_callback(stream, nil, nil)
            for op in pendingTiming {
                if pa_operation_get_state(op) == PA_OPERATION_RUNNING { pa_operation_cancel(op) }
                pa_operation_unref(op)
            }
            pendingTiming.removeAll()
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
            self.stream = nil
        }
    }

    // MARK: Feeding

    /// Writes up to `bytes` from the FIFO (mainloop lock held).
    private func fill(_ bytes: Int) {
        guard let stream else { return }
        guard !holding else { starving = true; return }
        let rate = Double(format.sampleRate)
        var remaining = bytes / format.bytesPerFrame
        while remaining > 0 {
            if chained != nil, fifo.isDrained, chained!.fifo.peekPts() != nil {
                switchToChained()
                continue
            }
            guard let nextPts = fifo.peekPts() else {
                starving = true
                if fifo.reachedEnd && !corked {
                    // Less than the prebuffer may be left: start playing it anyway.
                    connection.release(pa_stream_trigger(stream, nil, nil))
                }
                return
            }
            var data: UnsafeMutableRawPointer? = nil
            var size = remaining * format.bytesPerFrame
            guard pa_stream_begin_write(stream, &data, &size) == 0, let data, size >= format.bytesPerFrame else { return }
            let capacity = size / format.bytesPerFrame
            let samples = data.assumingMemoryBound(to: Float.self)
            var frames: Int
            var startPts: Double
            var speed = writtenSpeed
            // A hole in the timestamps is played as silence, so the clock stays true to the media.
            let gap = hasWritten ? nextPts - writtenEndPts : 0
            if gap > 0.005 {
                frames = min(capacity, Int((gap / speed * rate).rounded()))
                samples.update(repeating: 0, count: frames * format.channels)
                startPts = writtenEndPts
            } else {
                (frames, startPts, speed) = fifo.read(into: samples, maxFrames: capacity)
                if frames > 0 && fadeInLeft > 0 {
                    let n = min(frames, fadeInLeft)
                    Fade.applyIn(samples, frames: n, channels: format.channels, done: fadeFrames - fadeInLeft, length: fadeFrames)
                    fadeInLeft -= n
                }
            }
            guard frames > 0 else { pa_stream_cancel_write(stream); return }
            // Kept before writing: the buffer belongs to libpulse once written.
            let newTimeline = bytesSinceFlush == 0
            if newTimeline {
                // Placed exactly: after any fade-out still queued, not behind what is audible.
                var start = firstWriteIndex()
                if start >= writeIndex {
                    // Nothing queued: the stream has run dry and the sink is rendering silence
                    // ahead for it, so the very first samples may be swallowed when it picks up.
                    // Let them be silence, not the start of the fade-in.
                    writeSilence(frames: Int(Double(format.sampleRate) * Self.leadIn), at: start)
                    start += Int64(Double(format.sampleRate) * Self.leadIn)
                }
                timelineStart = start
                writeIndex = timelineStart
                nextStart = nil
            }
            written.append(samples, frames: frames, at: writeIndex)
            pa_stream_write(stream, data, frames * format.bytesPerFrame, nil,
                            newTimeline ? writeIndex * Int64(format.bytesPerFrame) : 0,
                            newTimeline ? PA_SEEK_ABSOLUTE : PA_SEEK_RELATIVE)
            writeIndex += Int64(frames)
            softStopped = false
            if !hasWritten || abs(startPts - writtenEndPts) > 0.0005 || speed != writtenSpeed {
                segments.append((bytesSinceFlush, startPts, speed))
            }
            hasWritten = true
            underflowed = false
            bytesSinceFlush += Int64(frames * format.bytesPerFrame)
            writtenEndPts = startPts + Double(frames) * speed / rate
            writtenSpeed = speed
            remaining -= frames
        }
        starving = false
        if HostTime.now.seconds(since: lastTimingRequest) > 0.1 { requestTiming() }
    }

    /// Reads on from the chained FIFO in the same stream, with no fade and no gap (lock held).
    private func switchToChained() {
        guard let next = chained else { return }
        chained = nil
        seam = (fifo, bytesSinceFlush)
        fifo = next.fifo
        // What the next item has before its first sound is written as silence (see `fill`).
        writtenEndPts = next.start
        segments.append((bytesSinceFlush, next.start, writtenSpeed))
    }

    /// Asks the server for a fresh timing report (lock held). Automatic updates thin out to one
    /// every 1.5 s; the clock wants them fresher, and at once when playback starts or underruns.
    private func requestTiming() {
        guard let stream else { return }
        lastTimingRequest = .now
        pendingTiming.removeAll { op in
            guard pa_operation_get_state(op) != PA_OPERATION_RUNNING else { return false }
            pa_operation_unref(op)
            return true
        }
        guard let op = pa_stream_update_timing_info(stream, { _, _, userdata in
            Unmanaged<PulseAudioOutput>.fromOpaque(userdata!).takeUnretainedValue().timingReplies += 1
        }, Unmanaged.passUnretained(self).toOpaque()) else { return }
        timingRequests += 1
        pendingTiming.append(op)
    }

    /// Requests fresh timing and distrusts everything reported before it (lock held).
    private func restartTiming() {
        requestTiming()
        trustedFrom = timingRequests
    }

    /// The media time of the byte `offset` bytes after the last flush (lock held).
    private func pts(atOffset offset: Int64) -> Double? {
        guard let segment = segments.last(where: { $0.offset <= offset }) ?? segments.first else { return nil }
        return segment.pts + Double(offset - segment.offset) * segment.speed / Double(format.sampleRate * format.bytesPerFrame)
    }

    /// How many bytes of what was written since the flush have been heard at `now` (lock held);
    /// nil when the server's report is not valid yet.
    private func playedOffset(now: HostTime) -> Int64? {
        guard let stream, hasWritten, timingReplies >= trustedFrom,
              let info = pa_stream_get_timing_info(stream)?.pointee,
              info.read_index_corrupt == 0, info.write_index_corrupt == 0 else { return nil }
        let bytesPerSecond = Double(format.sampleRate * format.bytesPerFrame)
        let flushPoint = info.write_index - bytesSinceFlush
        var heard = Double(info.read_index - flushPoint) / bytesPerSecond - Double(info.sink_usec) / 1e6
        if info.playing != 0 && !corked {
            var tv = timeval()
            gettimeofday(&tv, nil)
            let age = Double(tv.tv_sec - info.timestamp.tv_sec) + Double(tv.tv_usec - info.timestamp.tv_usec) / 1e6
            heard += Double(info.transport_usec) / 1e6 + max(0, age)
        }
        return Int64(heard * bytesPerSecond)
    }

    private func feedIfStarving() {
        connection.locked {
            guard starving, let stream else { return }
            let writable = pa_stream_writable_size(stream)
            if writable != Int.max && writable > 0 { fill(writable) }
        }
    }

    // MARK: Control

    func start() {
        connection.locked {
            guard let stream else { return }
            corked = false
            holding = false
            if let resumeAt {
                // After a soft stop the sound picks up at the sample where it faded out.
                self.resumeAt = nil
                if !fifo.rewind(to: resumeAt) { fifo.discard(before: resumeAt) }
                resetTimeline()
            }
            connection.release(pa_stream_cork(stream, 0, nil, nil))
            restartTiming()
            let writable = pa_stream_writable_size(stream)
            if writable != Int.max && writable > 0 { fill(writable) }
            if fifo.reachedEnd { connection.release(pa_stream_trigger(stream, nil, nil)) }
        }
    }

    func pause() {
        connection.locked {
            guard let stream else { return }
            // Corking would cut a fade-out still queued: after a soft stop nothing plays anyway.
            if !softStop() && !softStopped {
                connection.release(pa_stream_cork(stream, 1, nil, nil))
                requestTiming()
            }
            corked = true
        }
    }

    func flush() {
        connection.locked {
            guard stream != nil else { return }
            softStop()
            resumeAt = nil
            resetTimeline()
            holding = true
        }
    }

    /// Stops the sound without a click (lock held): what was written beyond the moment now
    /// audible (plus a safety margin) is written over — the next few milliseconds again, fading
    /// out, then silence. Data the sink has read but not played is rewritten by the server
    /// (it rewinds the sink). Returns false when nothing was playing.
    @discardableResult
    private func softStop() -> Bool {
        guard stream != nil, !corked, !holding, hasWritten, !softStopped else { return false }
        holding = true
        softStopped = true
        softStopTime = .now
        let margin = Int64(Double(format.sampleRate) * Self.stopMargin)
        guard let audible = audibleIndex(now: .now) else {
            // No report yet: nothing written can have been heard; silence all of it.
            overwrite(from: timelineStart)
            return true
        }
        overwrite(from: max(timelineStart, audible + margin))
        return true
    }

    /// Writes, from stream frame `cut` up to the write index, the sound that was there fading
    /// out and then silence; notes where to resume and where the next sound may start.
    private func overwrite(from cut: Int64) {
        guard let stream else { return }
        let channels = format.channels
        resumeAt = pts(atOffset: (cut - timelineStart) * Int64(format.bytesPerFrame))
        guard cut < writeIndex else { nextStart = writeIndex; return }
        let total = Int(writeIndex - cut)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: total * channels)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0, count: total * channels)
        let faded = written.copy(from: cut, frames: min(fadeFrames, total), into: buffer)
        Fade.applyOut(buffer, frames: faded, channels: channels)
        pa_stream_write(stream, buffer, total * format.bytesPerFrame, nil, cut * Int64(format.bytesPerFrame), PA_SEEK_ABSOLUTE)
        nextStart = cut + Int64(max(faded, 1))
    }

    /// Writes `frames` frames of silence at stream frame `index` (lock held).
    private func writeSilence(frames: Int, at index: Int64) {
        guard let stream, frames > 0 else { return }
        let count = frames * format.channels
        let zeros = UnsafeMutablePointer<Float>.allocate(capacity: count)
        defer { zeros.deallocate() }
        zeros.initialize(repeating: 0, count: count)
        pa_stream_write(stream, zeros, frames * format.bytesPerFrame, nil, index * Int64(format.bytesPerFrame), PA_SEEK_ABSOLUTE)
        writeIndex = index + Int64(frames)
    }

    /// Forgets the timeline: what is written next starts a new one, fading in (lock held).
    private func resetTimeline() {
        restartTiming()
        segments.removeAll()
        bytesSinceFlush = 0
        hasWritten = false
        underflowed = false
        starving = true
        fadeInLeft = fadeFrames
    }

    /// The stream frame audible at `now` by the newest report, however old (lock held).
    private func audibleIndex(now: HostTime) -> Int64? {
        guard let stream, let info = pa_stream_get_timing_info(stream)?.pointee, info.read_index_corrupt == 0 else { return nil }
        let rate = Double(format.sampleRate)
        var heard = Double(info.read_index / Int64(format.bytesPerFrame)) / rate - Double(info.sink_usec) / 1e6
        if info.playing != 0 && !corked {
            var tv = timeval()
            gettimeofday(&tv, nil)
            let age = Double(tv.tv_sec - info.timestamp.tv_sec) + Double(tv.tv_usec - info.timestamp.tv_usec) / 1e6
            heard += Double(info.transport_usec) / 1e6 + max(0, age)
        }
        return Int64(heard * rate)
    }

    /// Where the first sound of a new timeline goes (lock held): after the last fade-out, and
    /// not behind what is audible already.
    private func firstWriteIndex() -> Int64 {
        var index = nextStart ?? writeIndex
        if let audible = audibleIndex(now: .now) {
            index = max(index, min(writeIndex, audible + Int64(Double(format.sampleRate) * Self.stopMargin)))
        }
        return index
    }

    func position(at t: HostTime) -> Double? {
        let now = HostTime.now
        // `corked` is read under the lock with the rest: the control thread pauses while the
        // decoder threads ask for the time.
        let heard: (pts: Double, speed: Double, corked: Bool)? = connection.locked {
            guard !softStopped, let played = playedOffset(now: now), let first = segments.first else { return nil }
            // Nothing of the new data is audible yet: the clock holds at its start.
            if played <= 0 { return (first.pts, first.speed, corked) }
            let offset = min(played, bytesSinceFlush)
            guard let pts = pts(atOffset: offset) else { return nil }
            return (pts, segments.last(where: { $0.offset <= offset })?.speed ?? 1, corked)
        }
        guard let heard else { return nil }
        return heard.corked ? heard.pts : heard.pts + t.seconds(since: now) * heard.speed
    }

    var hasPlayedEverything: Bool {
        connection.locked {
            guard fifo.isDrained else { return false }
            guard hasWritten else { return true }
            if underflowed { return true }
            guard let played = playedOffset(now: .now) else { return false }
            return played >= bytesSinceFlush
        }
    }

    // MARK: Gapless

    var canChain: Bool { true }

    func chain(_ next: AudioFifo, startingAt start: Double) -> Bool {
        guard next.format == format else { return false }
        connection.locked {
            chained = (next, start)
            next.dataArrived = { [weak self] in self?.feedIfStarving() }
        }
        // The current FIFO may have ended already, with the stream waiting for more.
        feedIfStarving()
        return true
    }

    func unchain() {
        connection.locked {
            chained?.fifo.dataArrived = nil
            chained = nil
            if let seam {
                fifo.dataArrived = nil
                fifo = seam.previous
                self.seam = nil
            }
        }
    }

    var seamHeard: Bool {
        connection.locked {
            guard let seam, let played = playedOffset(now: .now) else { return false }
            return played >= seam.offset
        }
    }

    func isReading(_ candidate: AudioFifo) -> Bool { connection.locked { candidate === fifo } }

    /// Whether the stream still plays: false once it or its server failed (a new one is needed).
    var isUsable: Bool {
        connection.locked {
            guard let stream else { return false }
            return pa_stream_get_state(stream) == PA_STREAM_READY && reel_pa_context_is_good(pa_context_get_state(connection.context)) != 0
        }
    }

    /// The name the sound server shows for the stream (the media playing).
    func rename(_ name: String) {
        connection.locked {
            guard let stream else { return }
            connection.release(pa_stream_set_name(stream, name, nil, nil))
        }
    }

    /// The clock asks the output for the time, never the other way round: `clock` is not kept.
    func adopt(_ next: AudioFifo, clock: PlaybackClock) {
        let continues: Bool = connection.locked {
            if next === fifo, seam != nil {
                seam = nil
                return true
            }
            return false
        }
        guard !continues else { return }
        unchain()
        flush()
        connection.locked {
            fifo.dataArrived = nil
            fifo = next
            next.dataArrived = { [weak self] in self?.feedIfStarving() }
        }
    }

    func setVolume(_ volume: Double, muted: Bool) {
        connection.locked {
            self.volume = volume
            self.muted = muted
            guard let stream else { return }
            let index = pa_stream_get_index(stream)
            var cv = pa_cvolume()
            let level = pa_volume_t(max(0, min(1, volume)) * Double(reel_pa_volume_norm()))
            pa_cvolume_set(&cv, UInt32(format.channels), level)
            connection.release(pa_context_set_sink_input_volume(connection.context, index, &cv, nil, nil))
            connection.release(pa_context_set_sink_input_mute(connection.context, index, muted ? 1 : 0, nil, nil))
        }
    }
}
