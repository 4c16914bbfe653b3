import CFFmpeg
import Foundation

/// The video decoder thread: packets in, timed pictures out. After an exact seek it hands on
/// only the frame whose interval contains the target and what follows; frames that end before
/// the target are not even decoded when no other frame needs them (`skip_frame`). A seek
/// ahead within reach arrives as a retarget through `steering` instead of a flush: decoding
/// goes on from where it is, only the target and the frames' serial change. Packets in and
/// frames out go through the `DecodePump` it shares with the audio decoder.
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
    }

    // Safe: `pump` is used only on the worker thread.
    private let pump: DecodePump
    private let frames: VideoFrameQueue
    private let timing: Timing
    private var thread: EngineThread?
    /// Steers this decoder without a flush (held by whoever decides retargets).
    let steering = VideoDecoderSteering()
    let decodedFrames = Locked(0)
    let decodeErrors: Locked<Int>

    init(decoder: Decoder, packets: PacketQueue, frames: VideoFrameQueue, timing: Timing) {
        let errors = Locked(0)
        decodeErrors = errors
        pump = DecodePump(decoder: decoder, packets: packets, errors: errors)
        self.frames = frames
        self.timing = timing
    }

    func start() { thread = EngineThread(name: "reel.video") { [self] in run() } }

    /// The caller aborts the queues first so the thread wakes and ends.
    func join() { thread?.join(); thread = nil }

    private struct Target {
        let pts: Int64
        let mode: SeekMode
        /// Pictures before the target are kept as the past (a back step's landing), so none
        /// may be skipped.
        let fills: Bool
    }

    private func landing(for request: SeekRequest) -> Target {
        let ts = Int64(((request.target + timing.origin) / av_q2d(timing.timeBase)).rounded(.down))
        return Target(pts: ts, mode: request.mode, fills: request.fillsPast)
    }

    private func run() {
        let scratch = pump.frame
        let decoder = pump.decoder
        /// The serial of the frames made from the packets decoded (the pump's, the last
        /// flush's), except after a retarget, which relabels frames but not packets.
        var serial = -1
        var target: Target?
        var candidate: VideoFrame?
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

        func route(_ frame: VideoFrame) {
            guard let t = target else { deliver(frame); return }
            let pts = Int64((( frame.pts + timing.origin) / av_q2d(timing.timeBase)).rounded())
            let duration = max(Int64((frame.duration / av_q2d(timing.timeBase)).rounded()), 1)
            switch t.mode {
            case .keyframe:
                target = nil
                deliver(frame)
            case .exact:
                if pts + duration <= t.pts {
                    // Ends before the target: keep only the latest (and, filling, the rest as past).
                    if t.fills, let older = candidate { frames.pushPast(older) }
                    candidate = frame
                } else if pts <= t.pts {
                    if t.fills, let older = candidate { frames.pushPast(older) }
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
            route(makeFrame(Frame.takingContents(of: scratch), pts: pts, duration: duration, serial: serial))
        }

        while true {
            switch pump.next() {
            case .frame:
                handleDecodedFrame()
            case .flushed(let request):
                serial = request.serial
                candidate = nil
                lastPts = reel_nopts_value()
                target = landing(for: request)
                latestBeforeTarget = .min
                decoder.skipsNonReferenceFrames = false
            case .sending(let packet):
                if let r = steering.take(from: serial) { apply(r) }
                // Before an exact target, a packet no other picture needs is not decoded at all.
                if let t = target, t.mode == .exact, !t.fills, packet.pts != reel_nopts_value() {
                    decoder.skipsNonReferenceFrames = packet.pts < latestBeforeTarget
                    if packet.pts <= t.pts { latestBeforeTarget = max(latestBeforeTarget, packet.pts) }
                } else if decoder.skipsNonReferenceFrames {
                    decoder.skipsNonReferenceFrames = false
                }
            case .ended:
                if let r = steering.take(from: serial) { apply(r) }
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

    private func makeFrame(_ frame: Frame, pts: Int64, duration: Int64, serial: Int) -> VideoFrame {
        let tb = av_q2d(timing.timeBase)
        var index: Int? = nil
        if timing.constantRate && timing.frameDuration > 0 && !rateChanged {
            index = Int((Double(pts - timing.startPts) / Double(timing.frameDuration)).rounded())
        }
        return VideoFrame(frame: frame, serial: serial, pts: Double(pts) * tb - timing.origin,
                          duration: Double(max(duration, 0)) * tb, index: index)
    }
}
