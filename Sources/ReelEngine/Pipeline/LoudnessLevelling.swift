/// The loudness levelling step of the audio decoder: decoded sound in, the same media time out,
/// levelled (`LevellingFilter`) while wanted. The filter's output trails its input by its
/// look-ahead, so the decoded sound is held back beside it by the same amount and each levelled
/// sample is mixed with the decoded sample of the same time (`LevellingCrossFade`). Switched on,
/// nothing comes out until the filter has looked ahead (the decoder runs on into the FIFO's
/// lead, so the device hears no gap); switched off, the fade back ends, the held-back sound goes
/// out as it is and the filter is dropped, so levelling off costs nothing.
/// Threading: used only by the audio decoder thread.
final class LoudnessLevelling {
    typealias Deliver = (_ samples: UnsafeMutablePointer<Float>, _ frames: Int, _ pts: Double) -> Void

    private let format: AudioFormat
    private var filter: LevellingFilter?
    private var fade: LevellingCrossFade
    /// The decoded sound given to the filter and not yet matched by its output, interleaved,
    /// from `heldStart`; and the media time of each run of it.
    private var held: [Float] = []
    private var heldStart = 0
    private var heldTimes: [(pts: Double, frames: Int)] = []   // a few dozen runs at most
    private var mixed: [Float] = []
    /// Filters that could not be set up: levelling is then skipped, not the sound.
    private(set) var failures = 0

    init(format: AudioFormat, levelled: Bool) {
        self.format = format
        fade = LevellingCrossFade(rate: format.sampleRate, levelled: levelled)
        reset(levelled: levelled)
    }

    var isFiltering: Bool { filter != nil }
    private var channels: Int { format.channels }
    private var heldFrames: Int { (held.count - heldStart) / channels }

    /// After a flush: the sound from here on is of another place, so the filter starts afresh,
    /// with no fade (the decoder fades in after a flush anyway).
    func reset(levelled: Bool) {
        filter = nil
        held.removeAll(keepingCapacity: true)
        heldStart = 0
        heldTimes.removeAll(keepingCapacity: true)
        fade = LevellingCrossFade(rate: format.sampleRate, levelled: levelled)
        if levelled { startFilter() }
    }

    /// Takes `frames` decoded frames starting at media time `pts`; hands on whatever is ready.
    func process(_ samples: UnsafeMutablePointer<Float>, frames: Int, pts: Double, levelled: Bool,
                 deliver: Deliver) {
        if levelled != fade.levelled {
            fade.levelled = levelled
            if levelled && filter == nil { startFilter() }
        }
        guard let filter else { deliver(samples, frames, pts); return }
        held.append(contentsOf: UnsafeBufferPointer(start: samples, count: frames * channels))
        heldTimes.append((pts, frames))
        do {
            try filter.process(samples, frames: frames)
        } catch {
            // The sound goes on unlevelled rather than stopping.
            failures += 1
            self.filter = nil
            releaseHeld(deliver)
            return
        }
        mix(filter.buffer, deliver: deliver)
        if fade.isDry {
            releaseHeld(deliver)
            self.filter = nil
        }
    }

    /// The end of the stream: the filter lets out what it held back.
    func drain(_ deliver: Deliver) {
        guard let filter else { return }
        filter.drain()
        mix(filter.buffer, deliver: deliver)
        releaseHeld(deliver)
    }

    private func startFilter() {
        do { filter = try LevellingFilter(format: format) } catch { failures += 1; filter = nil }
    }

    /// Mixes the filter's output with the held-back decoded sound of the same time and
    /// delivers it; the drain's padding past the held sound is cut.
    private func mix(_ wet: [Float], deliver: Deliver) {
        let frames = min(wet.count / channels, heldFrames)
        guard frames > 0 else { return }
        mixed.removeAll(keepingCapacity: true)
        mixed.reserveCapacity(frames * channels)
        held.withUnsafeBufferPointer { dry in
            for frame in 0..<frames {
                let weight = fade.nextWeight()
                let base = frame * channels
                for c in 0..<channels {
                    let d = dry[heldStart + base + c]
                    mixed.append(d + (wet[base + c] - d) * weight)
                }
            }
        }
        mixed.withUnsafeMutableBufferPointer { deliverRuns($0.baseAddress!, frames: frames, deliver) }
        dropHeld(frames)
    }

    /// Delivers the held-back decoded sound as it is (levelling off, or the filter gone).
    private func releaseHeld(_ deliver: Deliver) {
        let frames = heldFrames
        guard frames > 0 else { return }
        held.withUnsafeMutableBufferPointer { deliverRuns($0.baseAddress! + heldStart, frames: frames, deliver) }
        dropHeld(frames)
    }

    /// `frames` frames of sound for the oldest held runs, delivered run by run with their times.
    private func deliverRuns(_ samples: UnsafeMutablePointer<Float>, frames: Int, _ deliver: Deliver) {
        var done = 0
        while done < frames, let run = heldTimes.first {
            let count = min(run.frames, frames - done)
            deliver(samples + done * channels, count, run.pts)
            done += count
            if count < run.frames {
                heldTimes[0] = (run.pts + Double(count) / Double(format.sampleRate), run.frames - count)
            } else {
                heldTimes.removeFirst()
            }
        }
    }

    private func dropHeld(_ frames: Int) {
        heldStart += frames * channels
        if heldStart == held.count {
            held.removeAll(keepingCapacity: true)
            heldStart = 0
        } else if heldStart > 1 << 16 && heldStart * 2 > held.count {
            held.removeFirst(heldStart)
            heldStart = 0
        }
    }
}
