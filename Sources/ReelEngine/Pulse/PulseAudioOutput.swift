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
/// its write index (counted by `StreamPlacement`) always says where each sample sits.
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
    private var playback: PulsePlaybackStream?
    private var stream: OpaquePointer? { playback?.raw }
    /// What was written since the last flush, as media time.
    private var timeline: WrittenTimeline
    private let timing = TimingRequests()
    private var corked = true
    /// Between a flush (or creation) and the next start nothing is written: the control
    /// thread first decides where playback starts and trims the FIFO to it.
    private var holding = true
    private var underflowed = false
    private var underrunCount = 0
    var underruns: Int { connection.locked { underrunCount } }
    private var starving = false
    /// Where each sample goes in the stream (fades, and where a new timeline starts).
    private var placement: StreamPlacement
    /// After a soft stop: the media time the sound picks up from when it starts again.
    private var resumeAt: Double?
    /// A soft stop happened and nothing was written since: the position is not reported.
    private var softStopped = false
    private var softStopTime: HostTime?

    /// Server-side buffer target: long enough to ride out scheduling hiccups on a busy machine,
    /// short enough that pause and seek feel immediate.
    static let targetLatency = 0.12
    /// Fade length when sound starts or stops: below what the ear hears as a fade, long enough
    /// that the start or end of a wave is not heard as a click.
    static let fadeSeconds = 0.005
    /// How far beyond the moment audible a stop begins: the timing report is extrapolated, and
    /// the rewritten data must reach the server before the sink plays that far. A write that
    /// comes later is cut off mid-wave: with 15 ms, one seek in ten clicked while another
    /// process kept a core busy (AudioContinuityTests); the sound ending 40 ms after a pause
    /// is not heard as late.
    static let stopMargin = 0.04
    /// Silence written before sound that starts on a stream that ran dry.
    static let leadIn = 0.01

    init(connection: PulseConnection, fifo: AudioFifo, name: String, device: String? = nil) throws(PlayerError) {
        self.connection = connection
        self.fifo = fifo
        format = fifo.format
        timeline = WrittenTimeline(bytesPerFrame: fifo.format.bytesPerFrame, sampleRate: fifo.format.sampleRate)
        placement = StreamPlacement(format: fifo.format, fadeSeconds: Self.fadeSeconds)
        let opened = connection.locked {
            Result { () throws(PlayerError) -> PulsePlaybackStream in
                try PulsePlaybackStream.open(connection: connection, format: format, name: name, device: device,
                                             targetLatency: Self.targetLatency) { stream in
                    // Unretained, as libpulse's own userdata would be: `close` (also from
                    // deinit) disconnects the stream, under the lock, before `self` goes.
                    stream.onWritable = { [unowned(unsafe) self] bytes in fill(bytes) }
                    stream.onUnderflow = { [unowned(unsafe) self] in
                        // Running dry after a stop, or at the end, is expected; otherwise it is a gap.
                        if !holding && !softStopped && !fifo.isDrained { underrunCount += 1 }
                        underflowed = true
                        requestTiming()
                    }
                    stream.onStarted = { [unowned(unsafe) self] in requestTiming() }
                }
            }
        }
        playback = try opened.get()
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
            guard let playback else { return }
            timing.cancelAll()
            playback.disconnect()
            self.playback = nil
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
            var speed = timeline.speed
            // A hole in the timestamps is played as silence, so the clock stays true to the media.
            let gap = timeline.hasWritten ? nextPts - timeline.endPts : 0
            if gap > 0.005 {
                frames = min(capacity, Int((gap / speed * rate).rounded()))
                samples.update(repeating: 0, count: frames * format.channels)
                startPts = timeline.endPts
            } else {
                (frames, startPts, speed) = fifo.read(into: samples, maxFrames: capacity)
                placement.fadeIn(samples, frames: frames)
            }
            guard frames > 0 else { pa_stream_cancel_write(stream); return }
            let newTimeline = timeline.bytes == 0
            if newTimeline {
                // Placed exactly: after any fade-out still queued, not behind what is audible.
                placement.beginTimeline(stream, at: firstWriteIndex(),
                                        leadIn: Int(Double(format.sampleRate) * Self.leadIn))
            }
            placement.write(stream, data, frames: frames, startsTimeline: newTimeline)
            softStopped = false
            timeline.record(frames: frames, startPts: startPts, speed: speed)
            underflowed = false
            remaining -= frames
        }
        starving = false
        if HostTime.now.seconds(since: timing.lastRequest) > 0.1 { requestTiming() }
    }

    /// Reads on from the chained FIFO in the same stream, with no fade and no gap (lock held).
    private func switchToChained() {
        guard let next = chained else { return }
        chained = nil
        seam = (fifo, timeline.bytes)
        fifo = next.fifo
        // What the next item has before its first sound is written as silence (see `fill`).
        timeline.continueAt(next.start)
    }

    /// Asks the server for a fresh timing report (lock held).
    private func requestTiming() {
        guard let stream else { return }
        timing.request(stream)
    }

    /// Requests fresh timing and distrusts everything reported before it (lock held).
    private func restartTiming() {
        guard let stream else { return }
        timing.restart(stream)
    }

    /// How many bytes of what was written since the flush have been heard at `now` (lock held);
    /// nil when the server's report is not valid yet.
    private func playedOffset(now: HostTime) -> Int64? {
        guard let stream, timeline.hasWritten, timing.isTrusted,
              let info = pa_stream_get_timing_info(stream)?.pointee,
              info.read_index_corrupt == 0, info.write_index_corrupt == 0 else { return nil }
        let bytesPerSecond = Double(format.sampleRate * format.bytesPerFrame)
        let flushPoint = info.write_index - timeline.bytes
        let heard = Double(info.read_index - flushPoint) / bytesPerSecond + info.audibleCorrection(running: !corked)
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
        guard stream != nil, !corked, !holding, timeline.hasWritten, !softStopped else { return false }
        holding = true
        softStopped = true
        softStopTime = .now
        let margin = Int64(Double(format.sampleRate) * Self.stopMargin)
        guard let audible = audibleIndex(now: .now) else {
            // No report yet: nothing written can have been heard; silence all of it.
            overwrite(from: placement.timelineStart)
            return true
        }
        overwrite(from: max(placement.timelineStart, audible + margin))
        return true
    }

    /// Fades out what is queued from stream frame `cut` on and notes where to resume (lock held).
    private func overwrite(from cut: Int64) {
        guard let stream else { return }
        resumeAt = timeline.pts(atOffset: (cut - placement.timelineStart) * Int64(format.bytesPerFrame))
        placement.overwrite(stream, from: cut)
    }

    /// Forgets the timeline: what is written next starts a new one, fading in (lock held).
    private func resetTimeline() {
        restartTiming()
        timeline.reset()
        underflowed = false
        starving = true
        placement.fadeInNext()
    }

    /// The stream frame audible at `now` by the newest report, however old (lock held).
    private func audibleIndex(now: HostTime) -> Int64? {
        guard let stream, let info = pa_stream_get_timing_info(stream)?.pointee, info.read_index_corrupt == 0 else { return nil }
        let rate = Double(format.sampleRate)
        let heard = Double(info.read_index / Int64(format.bytesPerFrame)) / rate + info.audibleCorrection(running: !corked)
        return Int64(heard * rate)
    }

    /// Where the first sound of a new timeline goes (lock held): after the last fade-out, and
    /// not behind what is audible already.
    private func firstWriteIndex() -> Int64 {
        placement.firstIndex(audible: audibleIndex(now: .now), margin: Int64(Double(format.sampleRate) * Self.stopMargin))
    }

    func position(at t: HostTime) -> Double? {
        let now = HostTime.now
        // `corked` is read under the lock with the rest: the control thread pauses while the
        // decoder threads ask for the time.
        let heard: (pts: Double, speed: Double, corked: Bool)? = connection.locked {
            guard !softStopped, let played = playedOffset(now: now), let first = timeline.runs.first else { return nil }
            // Nothing of the new data is audible yet: the clock holds at its start.
            if played <= 0 { return (first.pts, first.speed, corked) }
            let offset = min(played, timeline.bytes)
            guard let pts = timeline.pts(atOffset: offset) else { return nil }
            return (pts, timeline.speed(atOffset: offset), corked)
        }
        guard let heard else { return nil }
        return heard.corked ? heard.pts : heard.pts + t.seconds(since: now) * heard.speed
    }

    var hasPlayedEverything: Bool {
        connection.locked {
            guard fifo.isDrained else { return false }
            guard timeline.hasWritten else { return true }
            if underflowed { return true }
            guard let played = playedOffset(now: .now) else { return false }
            return played >= timeline.bytes
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
