import CFFmpeg
import Foundation

/// The video decoder thread: packets in, timed pictures out. After an exact seek it hands on
/// only the frame whose interval contains the target and what follows; frames that end before
/// the target are not even decoded when no other frame needs them (`skip_frame`). A seek
/// ahead within reach arrives as a retarget through `steering` instead of a flush: decoding
/// goes on from where it is, only the target and the frames' serial change. Packets in and
/// frames out go through the `DecodePump` it shares with the audio decoder. Interlaced frames
/// become field pictures in its `Deinterlacer` before the target is judged, so seeks and steps
/// land on fields.
/// Threading: its own thread; `stop` from the control thread.
final class VideoDecodeWorker: @unchecked Sendable {
    struct Timing {
        let timeBase: AVRational
        /// Stream start in stream units (first frame's pts), for frame numbers.
        let startPts: Int64
        /// Nominal frame duration in stream units (0 when unknown).
        let frameDuration: Int64
        /// True when the stream's rate is constant, so frame numbers make sense.
        let constantRate: Bool
        /// The container's start in seconds: reported times count from it.
        let origin: Double

        /// The same stream seen as fields, twice as many, each half as long (bwdif's output):
        /// the frame duration in the halved time base is the field's, and field numbers count
        /// as FFmpeg's own run of bwdif numbers its pictures.
        var fields: Timing {
            Timing(timeBase: av_mul_q(timeBase, AVRational(num: 1, den: 2)), startPts: startPts * 2,
                   frameDuration: frameDuration, constantRate: constantRate, origin: origin)
        }
    }

    // Safe: `pump` is used only on the worker thread.
    private let pump: DecodePump
    private let frames: VideoFrameQueue
    private let timing: Timing
    private let fieldTiming: Timing
    // Safe: used only on the worker thread.
    private let deinterlacer: Deinterlacer
    /// The container's HDR metadata (MP4 `mdcv`/`clli`, Matroska's colour elements), for
    /// pictures whose bitstream repeats none of it.
    private let streamHDR: HDRMetadata?
    private var thread: EngineThread?
    /// Steers this decoder without a flush (held by whoever decides retargets).
    let steering = VideoDecoderSteering()
    let decodedFrames = Locked(0)
    let decodeErrors: Locked<Int>

    init(decoder: Decoder, packets: PacketQueue, frames: VideoFrameQueue, timing: Timing, deinterlacer: Deinterlacer,
         streamHDR: HDRMetadata? = nil) {
        self.streamHDR = streamHDR
        let errors = Locked(0)
        decodeErrors = errors
        pump = DecodePump(decoder: decoder, packets: packets, errors: errors)
        self.frames = frames
        self.timing = timing
        fieldTiming = timing.fields
        self.deinterlacer = deinterlacer
    }

    func start() { thread = EngineThread(name: "reel.video") { [self] in run() } }

    /// The caller aborts the queues first so the thread wakes and ends.
    func join() { thread?.join(); thread = nil }

    private struct Target {
        /// Seconds from the container's start, as the stream's timestamps count.
        let seconds: Double
        let mode: SeekMode
        /// Pictures before the target are kept as the past (a back step's landing), so none
        /// may be skipped.
        let fills: Bool

        /// The target in units of `timeBase` (the stream's for frames, half of it for fields).
        func units(_ timeBase: AVRational) -> Int64 { Int64((seconds / av_q2d(timeBase)).rounded(.down)) }
    }

    private func landing(for request: SeekRequest) -> Target {
        Target(seconds: request.target + timing.origin, mode: request.mode, fills: request.fillsPast)
    }

    /// The timing of the pictures handed on: the fields' while deinterlacing, else the frames'.
    private var pictureTiming: Timing { deinterlacer.isActive ? fieldTiming : timing }

    private func run() {
        let scratch = pump.frame
        let decoder = pump.decoder
        /// The serial of the frames made from the packets decoded (the pump's, the last
        /// flush's), except after a retarget, which relabels frames but not packets.
        var serial = -1
        var target: Target?
        var candidate: VideoFrame?
        /// The candidate is a deinterlaced picture made without its true predecessor.
        var candidateIsPrimer = false
        var lastPts: Int64 = reel_nopts_value()
        /// The latest packet timestamp at or before the target sent so far: a non-reference
        /// packet before it cannot hold the target's picture (a later picture starts at or
        /// before the target), so it need not be decoded. The packet that holds it is never
        /// skipped, whatever the durations say (variable frame rates make them unreliable).
        var latestBeforeTarget = Int64.min

        func apply(_ r: VideoDecoderSteering.Retarget) {
            serial = r.request.serial
            target = self.landing(for: r.request)
            candidate = nil
            candidateIsPrimer = false
            latestBeforeTarget = .min
        }

        /// Hands a frame to the queue; when the queue refuses it because this decoder was
        /// retargeted meanwhile, the frame is judged again against the new target (it may be
        /// the landing).
        func deliver(_ frame: VideoFrame) {
            if frame.serial != serial { route(frame.relabeled(serial: serial)); return }
            if frames.push(frame) == .refused, let r = steering.take(from: frame.serial) {
                apply(r)
                route(frame.relabeled(serial: serial))
            }
        }

        /// `primer`: a field bwdif made without the frame before (kept as the past it would
        /// be a picture no run from the start shows).
        func route(_ frame: VideoFrame, primer: Bool = false) {
            guard let t = target else { deliver(frame); return }
            let timeBase = pictureTiming.timeBase
            let pts = Int64((( frame.pts + timing.origin) / av_q2d(timeBase)).rounded())
            let duration = max(Int64((frame.duration / av_q2d(timeBase)).rounded()), 1)
            let targetPts = t.units(timeBase)
            switch t.mode {
            case .keyframe:
                target = nil
                deliver(frame)
            case .exact:
                let keepsOlder = t.fills && !candidateIsPrimer
                if pts + duration <= targetPts {
                    // Ends before the target: keep only the latest (and, filling, the rest as past).
                    if keepsOlder, let older = candidate { frames.pushPast(older) }
                    candidate = frame
                    candidateIsPrimer = primer
                } else if pts <= targetPts {
                    if keepsOlder, let older = candidate { frames.pushPast(older) }
                    target = nil; candidate = nil
                    deliver(frame)             // contains the target
                } else {
                    target = nil               // starts after the target: the previous frame held it
                    let held = candidate
                    candidate = nil
                    if let held { deliver(held) }
                    deliver(frame)
                }
            }
        }

        func handleDecodedFrame() {
            var pts = scratch.bestEffortTimestamp
            var duration = scratch.durationInStreamUnits
            if duration > 0 { noteFrameRate(duration) }
            if duration <= 0 { duration = timing.frameDuration }
            if pts == reel_nopts_value() {
                pts = lastPts == reel_nopts_value() ? 0 : lastPts + max(duration, 1)
            }
            lastPts = pts
            if scratch.hasDecodeError { decodeErrors.withLock { $0 += 1 } }
            decodedFrames.withLock { $0 += 1 }
            if let r = steering.take(from: serial) { apply(r) }
            let decoded = Frame.takingContents(of: scratch)
            // A frame that ends before an exact target only matters to bwdif as the target's
            // predecessor (a back step's landing keeps every picture: nothing is held).
            let hold = target.map { $0.mode == .exact && !$0.fills && pts + duration <= $0.units(timing.timeBase) } ?? false
            guard let pictures = deinterlacer.take(decoded, pts: pts, duration: duration, hold: hold) else {
                route(makeFrame(decoded, pts: pts, duration: duration, serial: serial, timing: timing))
                return
            }
            routeFields(pictures)
        }

        func routeFields(_ pictures: [Deinterlacer.Picture]) {
            for picture in pictures {
                route(makeFrame(picture.frame, pts: picture.pts, duration: picture.duration, serial: serial,
                                timing: fieldTiming), primer: picture.isPrimer)
            }
        }

        while true {
            switch pump.next() {
            case .frame:
                handleDecodedFrame()
            case .flushed(let request):
                serial = request.serial
                candidate = nil
                candidateIsPrimer = false
                deinterlacer.reset()
                lastPts = reel_nopts_value()
                target = landing(for: request)
                latestBeforeTarget = .min
                decoder.skipsNonReferenceFrames = false
            case .sending(let packet):
                if let r = steering.take(from: serial) { apply(r) }
                // Before an exact target, a packet no other picture needs is not decoded at all
                // (unless bwdif needs it as the target's predecessor).
                if let t = target, t.mode == .exact, !t.fills, !deinterlacer.needsEveryFrame,
                   packet.pts != reel_nopts_value() {
                    decoder.skipsNonReferenceFrames = packet.pts < latestBeforeTarget
                    if packet.pts <= t.units(timing.timeBase) { latestBeforeTarget = max(latestBeforeTarget, packet.pts) }
                } else if decoder.skipsNonReferenceFrames {
                    decoder.skipsNonReferenceFrames = false
                }
            case .ended:
                if let r = steering.take(from: serial) { apply(r) }
                routeFields(deinterlacer.drain())   // the last frame's fields
                // A target past the last frame lands on the last frame.
                if target != nil, let held = candidate { deliver(held) }
                target = nil; candidate = nil
                if !frames.markEndOfStream(serial: serial), let r = steering.take(from: serial) {
                    // Retargeted after the last frame: the new serial has nothing either.
                    apply(r)
                    frames.markEndOfStream(serial: serial)
                }
            case .aborted:
                return
            }
        }
    }

    /// Set once a picture lasts other than the stream's nominal frame duration by more than a
    /// quarter (a broadcast going from 25 to 50 fps, joined files): from then on frame numbers
    /// counted at the nominal rate would repeat or skip, so pictures get none.
    private var rateChanged = false

    private func noteFrameRate(_ duration: Int64) {
        guard !rateChanged, timing.constantRate, timing.frameDuration > 0 else { return }
        if abs(duration - timing.frameDuration) * 4 > timing.frameDuration { rateChanged = true }
    }

    private func makeFrame(_ frame: Frame, pts: Int64, duration: Int64, serial: Int, timing: Timing) -> VideoFrame {
        let tb = av_q2d(timing.timeBase)
        var index: Int? = nil
        if timing.constantRate && timing.frameDuration > 0 && !rateChanged {
            index = Int((Double(pts - timing.startPts) / Double(timing.frameDuration)).rounded())
        }
        return VideoFrame(frame: frame, serial: serial, pts: Double(pts) * tb - timing.origin,
                          duration: Double(max(duration, 0)) * tb, index: index, streamHDR: streamHDR)
    }
}
