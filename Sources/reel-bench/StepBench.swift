import Foundation
import ReelCommandLine
import ReelEngine

/// `bench step`: frame steps while paused, from the request to the new picture, beside mpv's
/// `frame-back-step` and `frame-step`. From each of a few seeded start positions (exact seeks,
/// not timed) it steps back `steps` times, then forward `steps` times; Reel, then mpv, from the
/// same positions. The first back step from a fresh seek decodes the GOP up to there (later
/// ones come from what that kept), so the figures include that cost where it falls.
/// Threading: runs on the calling thread; Reel's events are read through the recorder.
struct StepBench {
    let setup: BenchSetup
    let starts: Int
    let steps: Int
    let seed: UInt64

    private let timeout = 30.0

    func run() throws -> [String: Any] {
        guard let duration = setup.duration, duration > 2 else {
            throw ToolFailure(code: "usage", message: "bench step needs media longer than 2 s with a known duration")
        }
        let mpvPath = setup.compare ? try Peer.mpv.locate() : nil
        // Starts at least a second in, so every run of back steps has room.
        let points = SeekBench.targets(count: starts, duration: duration - 1, seed: seed).map { $0 + 1 }
        Output.note("bench step: \(points.count) starts, \(steps) steps back then forward from each, seed \(seed)")

        let reel = try ReelStepper(setup: setup, timeout: timeout)
        defer { reel.close() }
        let mpv = try mpvPath.map { try MPVPeer(path: $0, file: setup.path, timeout: timeout) }
        defer { mpv?.close() }
        try mpv?.observeTimePosition()

        var reelBack: [Double] = [], reelForward: [Double] = []
        var mpvBack: [Double] = [], mpvForward: [Double] = []
        var wrong = 0
        var request = 1
        for (i, start) in points.enumerated() {
            wrong += try reel.run(from: start, steps: steps, back: &reelBack, forward: &reelForward)
            var line = "bench step \(i + 1)/\(points.count) from \(start) s: reel back median "
                + "\(Output.round(Percentiles.median(Array(reelBack.suffix(steps))), 1)) ms"
            if let mpv {
                _ = try mpv.seek(to: start, flags: "absolute+exact", requestID: request); request += 1
                for _ in 0..<steps {
                    mpvBack.append(try mpv.restart(after: ["frame-back-step"], requestID: request)); request += 1
                }
                // Its time-pos change follows the last restart: let it arrive (untimed).
                try mpv.drain(for: 0.2)
                for _ in 0..<steps {
                    mpvForward.append(try mpv.frameStep(requestID: request)); request += 1
                }
                line += ", mpv \(Output.round(Percentiles.median(Array(mpvBack.suffix(steps))), 1)) ms"
            }
            Output.note(line)
        }

        var result: [String: Any] = [
            "bench": "step", "seed": seed, "starts": points.count, "steps": steps,
            "back_median_ms": Output.round(Percentiles.median(reelBack), 2),
            "back_p95_ms": Output.round(Percentiles.percentile(reelBack, 95), 2),
            "back_max_ms": Output.round(reelBack.max()!, 2),
            "forward_median_ms": Output.round(Percentiles.median(reelForward), 2),
            "forward_p95_ms": Output.round(Percentiles.percentile(reelForward, 95), 2),
            "wrong_frames": wrong,
        ]
        if !mpvBack.isEmpty {
            let back = Percentiles.median(reelBack), forward = Percentiles.median(reelForward)
            let mpvBackMedian = Percentiles.median(mpvBack), mpvForwardMedian = Percentiles.median(mpvForward)
            result["mpv_back_median_ms"] = Output.round(mpvBackMedian, 2)
            result["mpv_back_p95_ms"] = Output.round(Percentiles.percentile(mpvBack, 95), 2)
            result["mpv_forward_median_ms"] = Output.round(mpvForwardMedian, 2)
            result["mpv_forward_p95_ms"] = Output.round(Percentiles.percentile(mpvForward, 95), 2)
            result["ratio_back_median"] = benchRatio(back, mpvBackMedian) as Any
            result["ratio_back_p95"] = benchRatio(Percentiles.percentile(reelBack, 95), Percentiles.percentile(mpvBack, 95)) as Any
            result["ratio_forward_median"] = benchRatio(forward, mpvForwardMedian) as Any
        }
        return result
    }
}

/// Reel's side of the step bench: one paused player, sound decoded into the null output.
/// Threading: used from the bench's thread only.
private final class ReelStepper {
    private let log = PlayerEventRecorder()
    private let player: Player
    private let timeout: Double

    init(setup: BenchSetup, timeout: Double) throws {
        player = try setup.loadedPlayer(recording: log)
        self.timeout = timeout
    }

    /// Seeks to `start` (untimed), then times `steps` back steps and `steps` forward steps.
    /// Returns how many steps did not land on the neighbouring picture.
    func run(from start: Double, steps: Int, back: inout [Double], forward: inout [Double]) throws -> Int {
        _ = try landing { player.seek(to: start, mode: .exact) }
        var wrong = 0
        for direction in [true, false] {
            for _ in 0..<steps {
                let before = player.currentFrame?.pts
                let ms = try landing { direction ? player.stepBackward() : player.stepForward() }
                if direction { back.append(ms) } else { forward.append(ms) }
                let after = player.currentFrame?.pts
                if let before, let after, direction ? after >= before : after <= before { wrong += 1 }
            }
        }
        return wrong
    }

    /// Milliseconds from `request` to the `.seekCompleted` it causes.
    private func landing(_ request: () -> Void) throws -> Double {
        let from = log.count
        let clock = Stopwatch()
        request()
        guard log.wait(from: from, timeout: timeout, { event in
            if case .seekCompleted = event { return true }
            if case .stateChanged(_, .failed) = event { return true }
            return false
        }) != nil else {
            throw ToolFailure(code: "timeout", message: "Reel's step did not complete within \(Int(timeout)) s")
        }
        let ms = clock.milliseconds
        if case .failed(let error) = player.state { throw error }
        return ms
    }

    func close() { player.close() }
}
