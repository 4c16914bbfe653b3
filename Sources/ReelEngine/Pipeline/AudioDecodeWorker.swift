import CFFmpeg
import Foundation

/// The audio decoder thread: packets in, device-format PCM with media times into the FIFO.
/// After an exact seek, samples before the target are cut off (to the sample), and the first
/// few milliseconds fade in so that starting mid-waveform does not click. Away from 1×, the
/// sound goes through a pitch-preserving tempo filter before the FIFO, and while levelling is
/// on through `LoudnessLevelling` before that. Packets in and frames out
/// go through the `DecodePump` it shares with the video decoder.
/// Threading: its own thread; `join` from the control thread after the queues are aborted.
final class AudioDecodeWorker: @unchecked Sendable {
    // Safe: `pump`, `timeBase` and `resampler` are used only on the worker thread once it runs.
    private let pump: DecodePump
    private let resampler: Resampler
    private let fifo: AudioFifo
    private var timeBase: AVRational
    /// The container's start in seconds: reported times count from it.
    private let origin: Double
    private var thread: EngineThread?
    let decodedSamples = Locked(0)
    /// Media seconds per second of sound, taken up at the next flush (the control thread sets
    /// it, then seeks, so that the FIFO never mixes tempos within one serial).
    let speed = Locked(1.0)
    /// Loudness levelling wanted: taken up at the next decoded frame, with a cross-fade.
    let levelling = Locked(false)
    /// Fade-in length after every flush: 5 ms is below what the ear hears as a fade, and
    /// enough to take the step out of a waveform that starts mid-cycle.
    static let fadeInSeconds = 0.005
    let decodeErrors: Locked<Int>

    init(decoder: Decoder, packets: PacketQueue, fifo: AudioFifo, timeBase: AVRational, origin: Double) {
        self.origin = origin
        let errors = Locked(0)
        decodeErrors = errors
        pump = DecodePump(decoder: decoder, packets: packets, errors: errors)
        self.resampler = Resampler(output: fifo.format)
        self.fifo = fifo
        self.timeBase = timeBase
    }

    func start() { thread = EngineThread(name: "reel.audio") { [self] in run() } }

    func join() { thread?.join(); thread = nil }

    private func run() {
        let scratch = pump.frame
        let rate = Double(fifo.format.sampleRate)
        let channels = fifo.format.channels
        var serial = -1
        var cutBefore: Double?          // exact seek: drop samples before this time
        var nextPts: Double?            // expected time of the next output sample
        var tempo: TempoFilter?
        // Time-stretched output is timed from where it started: the filter's output covers the
        // input's media time at `speed` seconds per second of sound.
        var tempoStart: Double?
        var tempoOutput = 0
        let levelling = LoudnessLevelling(format: fifo.format, levelled: self.levelling.current)
        let fadeFrames = max(1, Int(rate * Self.fadeInSeconds))
        var faded = fadeFrames

        func setUpTempo() {
            let wanted = speed.current
            tempoStart = nil
            tempoOutput = 0
            guard abs(wanted - 1) > 0.001 else { tempo = nil; return }
            tempo = try? TempoFilter(format: fifo.format, speed: wanted)
        }
        setUpTempo()

        /// Appends device samples to the FIFO, fading in the first few after a flush.
        func append(_ samples: UnsafeMutablePointer<Float>, frames: Int, pts: Double, speed: Double) {
            if faded < fadeFrames {
                for i in 0..<min(frames, fadeFrames - faded) {
                    let gain = Float(faded + i) / Float(fadeFrames)
                    for c in 0..<channels { samples[i * channels + c] *= gain }
                }
                faded += min(frames, fadeFrames - faded)
            }
            fifo.append(samples, frames: frames, pts: pts, speed: speed, serial: serial)
        }

        func stretch(_ samples: UnsafeMutablePointer<Float>?, frames: Int, pts: Double) {
            guard let tempo else { return }
            if tempoStart == nil { tempoStart = pts }
            if let samples {
                do { try tempo.process(samples, frames: frames) } catch { decodeErrors.withLock { $0 += 1 }; return }
            } else {
                tempo.drain()
            }
            let out = tempo.buffer.count / channels
            guard out > 0, let start = tempoStart else { return }
            let outPts = start + Double(tempoOutput) * tempo.speed / rate
            tempoOutput += out
            tempo.buffer.withUnsafeBufferPointer { buffer in
                let copy = UnsafeMutablePointer<Float>(mutating: buffer.baseAddress!)
                append(copy, frames: out, pts: outPts, speed: tempo.speed)
            }
        }

        /// Levelled (or not) sound on to the tempo filter or the FIFO.
        func forward(_ samples: UnsafeMutablePointer<Float>, frames: Int, pts: Double) {
            if tempo != nil {
                stretch(samples, frames: frames, pts: pts)
            } else {
                append(samples, frames: frames, pts: pts, speed: 1)
            }
        }

        func emit(_ count: Int, pts: Double) {
            var frames = count
            var start = pts
            var offset = 0
            if let cut = cutBefore {
                let skip = Int(((cut - pts) * rate).rounded())
                if skip >= frames { nextPts = pts + Double(frames) / rate; return }
                if skip > 0 { offset = skip; frames -= skip; start = pts + Double(skip) / rate }
                cutBefore = nil
            }
            levelling.process(resampler.buffer + offset * channels, frames: frames, pts: start,
                              levelled: self.levelling.current, deliver: forward)
            nextPts = start + Double(frames) / rate
            decodedSamples.withLock { $0 += frames }
        }

        func handleDecodedFrame() {
            let ts = scratch.bestEffortTimestamp
            var pts = ts == reel_nopts_value() ? (nextPts ?? 0) : Double(ts) * av_q2d(timeBase) - origin
            // Output lags input by what the resampler holds back.
            pts -= resampler.delaySeconds
            if let expected = nextPts, abs(expected - pts) < 0.01 { pts = expected }
            do {
                let count = try resampler.convert(scratch)
                scratch.unref()
                if count > 0 { emit(count, pts: pts) }
            } catch {
                scratch.unref()
                decodeErrors.withLock { $0 += 1 }
            }
        }

        while true {
            switch pump.next() {
            case .frame:
                handleDecodedFrame()
            case .flushed(let request):
                if let change = request.audioSwitch {
                    // Another stream from here on: its own decoder; the old one goes with it.
                    pump.decoder = change.decoder
                    timeBase = change.timeBase
                    pump.decoder.flush()
                }
                _ = try? resampler.convert(nil)   // drop what the resampler held for the old position
                serial = request.serial
                cutBefore = request.mode == .exact ? request.target : nil
                nextPts = nil
                faded = 0
                setUpTempo()
                levelling.reset(levelled: self.levelling.current)
            case .sending:
                break
            case .ended:
                if let count = try? resampler.convert(nil), count > 0, let pts = nextPts {
                    emit(count, pts: pts)
                }
                levelling.drain(forward)
                if tempo != nil { stretch(nil, frames: 0, pts: nextPts ?? 0) }
                fifo.markEndOfStream(serial: serial)
            case .aborted:
                return
            }
        }
    }
}
