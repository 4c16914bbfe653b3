import CFFmpeg
import Foundation

/// The video decoder thread: packets in, timed pictures out. After an exact seek it hands on
/// only the frame whose interval contains the target and what follows; frames that end before
/// the target are not even decoded when no other frame needs them (`skip_frame`).
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

    // Safe: `decoder` is used only on the worker thread.
    private let decoder: Decoder
    private let packets: PacketQueue
    private let frames: VideoFrameQueue
    private let timing: Timing
    private var thread: EngineThread?
    let decodedFrames = Locked(0)
    let decodeErrors = Locked(0)

    init(decoder: Decoder, packets: PacketQueue, frames: VideoFrameQueue, timing: Timing) {
        self.decoder = decoder
        self.packets = packets
        self.frames = frames
        self.timing = timing
    }

    func start() { thread = EngineThread(name: "reel.video") { [self] in run() } }

    /// The caller aborts the queues first so the thread wakes and ends.
    func join() { thread?.join(); thread = nil }

    private struct Target {
        let pts: Int64
        let mode: SeekMode
    }

    private func run() {
        let scratch = Frame()
        var serial = -1
        var target: Target?
        var candidate: VideoFrame?
        var lastPts: Int64 = reel_nopts_value()
        var drained = false

        func deliver(_ frame: VideoFrame) { frames.push(frame) }

        func handleDecodedFrame() {
            var pts = scratch.bestEffortTimestamp
            var duration = scratch.durationInStreamUnits
            if duration <= 0 { duration = timing.frameDuration }
            if pts == reel_nopts_value() {
                pts = lastPts == reel_nopts_value() ? 0 : lastPts + max(duration, 1)
            }
            lastPts = pts
            if scratch.hasDecodeError { decodeErrors.withLock { $0 += 1 } }
            decodedFrames.withLock { $0 += 1 }
            let frame = makeFrame(Frame.takingContents(of: scratch), pts: pts, duration: duration, serial: serial)
            guard let t = target else { deliver(frame); return }
            switch t.mode {
            case .keyframe:
                target = nil
                deliver(frame)
            case .exact:
                if pts + max(duration, 1) <= t.pts {
                    candidate = frame          // ends before the target: keep only the latest
                } else if pts <= t.pts {
                    target = nil; candidate = nil
                    deliver(frame)             // contains the target
                } else {
                    target = nil               // starts after the target: the previous frame held it
                    if let held = candidate { deliver(held) }
                    candidate = nil
                    deliver(frame)
                }
            }
        }

        func receiveAll() {
            while true {
                switch decoder.receive(into: scratch) {
                case .frame: handleDecodedFrame()
                case .needsInput, .endOfStream: return
                case .error:
                    decodeErrors.withLock { $0 += 1 }
                    return
                }
            }
        }

        while let item = packets.pop() {
            switch item {
            case .flush(let request):
                decoder.flush()
                drained = false
                serial = request.serial
                candidate = nil
                lastPts = reel_nopts_value()
                let ts = Int64(((request.target + timing.origin) / av_q2d(timing.timeBase)).rounded(.down))
                target = Target(pts: ts, mode: request.mode)
                decoder.skipsNonReferenceFrames = false
            case .packet(let packet, let packetSerial):
                guard packetSerial == serial, !drained else { continue }
                if let t = target, t.mode == .exact, packet.pts != reel_nopts_value() {
                    // Only frames that end before the target may be skipped, never the target.
                    let end = packet.pts + max(packet.duration, timing.frameDuration, 1)
                    decoder.skipsNonReferenceFrames = end <= t.pts
                } else if decoder.skipsNonReferenceFrames {
                    decoder.skipsNonReferenceFrames = false
                }
                while true {
                    switch decoder.send(packet) {
                    case .accepted:
                        receiveAll()
                    case .full:
                        receiveAll()
                        continue
                    case .error:
                        decodeErrors.withLock { $0 += 1 }
                    }
                    break
                }
            case .endOfStream(let endSerial):
                guard endSerial == serial, !drained else { continue }
                decoder.skipsNonReferenceFrames = false
                _ = decoder.send(nil)
                receiveAll()
                // A target past the last frame lands on the last frame.
                if target != nil, let held = candidate { deliver(held) }
                target = nil; candidate = nil
                drained = true
                frames.markEndOfStream(serial: serial)
            }
        }
    }

    private func makeFrame(_ frame: Frame, pts: Int64, duration: Int64, serial: Int) -> VideoFrame {
        let tb = av_q2d(timing.timeBase)
        var index: Int? = nil
        if timing.constantRate && timing.frameDuration > 0 {
            index = Int((Double(pts - timing.startPts) / Double(timing.frameDuration)).rounded())
        }
        return VideoFrame(frame: frame, serial: serial, pts: Double(pts) * tb - timing.origin,
                          duration: Double(max(duration, 0)) * tb, index: index)
    }
}
