import Foundation
import ReelCommandLine
import ReelEngine

/// `bench seek`: latency of exact seeks while paused, from the request to the target frame
/// being ready, beside mpv's `seek T absolute+exact` → `playback-restart` over its IPC socket;
/// then pictures dropped in the first second after seeks made while playing (Reel only).
/// Both players stay open for the whole run and take the same targets in turn (Reel, then
/// mpv), so a noisy moment hits both.
/// Threading: runs on the calling thread; the Reel player's events arrive on its control
/// thread and are only read through the recorder.
struct SeekBench {
    static let defaultSeed: UInt64 = 20_240_601

    let setup: BenchSetup
    let targets: Int
    let seed: UInt64

    /// One seek may decode up to a GOP and some audio; 30 s means something is stuck.
    private let perSeekTimeout = 30.0

    func run() throws -> [String: Any] {
        guard let duration = setup.duration, duration > 1 else {
            throw ToolFailure(code: "usage", message: "bench seek needs media longer than 1 s with a known duration")
        }
        let mpvPath = setup.compare ? try Peer.mpv.locate() : nil
        let points = Self.targets(count: targets, duration: duration, seed: seed)
        Output.note("bench seek: \(points.count) targets in [0, \(Output.round(duration - 1))] s, seed \(seed)")

        let reel = try ReelSide(setup: setup, timeout: perSeekTimeout)
        defer { reel.close() }
        let mpv = try mpvPath.map { try MPVPeer(path: $0, file: setup.path, timeout: perSeekTimeout) }
        defer { mpv?.close() }

        var reelMs: [Double] = []
        var mpvMs: [Double] = []
        var inexact = 0
        for (i, target) in points.enumerated() {
            let landing = try reel.seek(to: target)
            reelMs.append(landing.milliseconds)
            if !landing.exact { inexact += 1 }
            var line = "bench seek \(i + 1)/\(points.count) → \(target) s: reel \(Output.round(landing.milliseconds, 1)) ms"
            if let mpv {
                let ms = try mpv.seek(to: target, flags: "absolute+exact", requestID: i + 1)
                mpvMs.append(ms)
                line += ", mpv \(Output.round(ms, 1)) ms"
            }
            if !landing.exact { line += " (Reel landed on pts \(landing.pts.map { "\($0)" } ?? "none"))" }
            Output.note(line)
        }

        // Then while playing: pictures dropped in the first second after each landing.
        let playing = Array(points.prefix(10))
        let drops = try PlayingSeekDrops(setup: setup, targets: playing).run()
        Output.note("bench seek: \(playing.count) seeks while playing dropped \(drops.total) pictures in their first second")

        let median = Percentiles.median(reelMs), p95 = Percentiles.percentile(reelMs, 95)
        var result: [String: Any] = [
            "bench": "seek", "seed": seed, "targets": points.count,
            "median_ms": Output.round(median, 1), "p95_ms": Output.round(p95, 1),
            "max_ms": Output.round(reelMs.max()!, 1),
            "inexact": inexact,
            "playing_seeks": playing.count,
            "dropped_first_second_total": drops.total,
            "dropped_first_second_max": drops.worst,
        ]
        if !mpvMs.isEmpty {
            let mpvMedian = Percentiles.median(mpvMs), mpvP95 = Percentiles.percentile(mpvMs, 95)
            result["mpv_median_ms"] = Output.round(mpvMedian, 1)
            result["mpv_p95_ms"] = Output.round(mpvP95, 1)
            result["mpv_max_ms"] = Output.round(mpvMs.max()!, 1)
            result["ratio_median"] = benchRatio(median, mpvMedian) as Any
            result["ratio_p95"] = benchRatio(p95, mpvP95) as Any
        }
        return result
    }

    /// Uniform in [0, duration − 1 s], rounded to the millisecond so that both players get the
    /// very same number. SplitMix64: tiny, and the same sequence on every machine.
    static func targets(count: Int, duration: Double, seed: UInt64) -> [Double] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let span = duration - 1
        return (0..<count).map { _ in
            let unit = Double(next() >> 11) / Double(1 << 53)
            return Output.round(unit * span, 3)
        }
    }
}

/// Reel's side of the seek bench: one paused player, audio decoded (as mpv does) into the null
/// output. Threading: used from the bench's thread only.
private final class ReelSide {
    struct Landing {
        let milliseconds: Double
        let pts: Double?
        let exact: Bool
    }

    private let log = PlayerEventRecorder()
    private let player: Player
    private let timeout: Double

    init(setup: BenchSetup, timeout: Double) throws {
        player = try setup.loadedPlayer(recording: log)
        self.timeout = timeout
    }

    /// Request to `.seekCompleted` — the control thread emits it once the frame holding the
    /// target is decoded and on the presentation (and the audio is ready at the target).
    func seek(to target: Double) throws -> Landing {
        let from = log.count   // only events after this request count
        let clock = Stopwatch()
        player.seek(to: target, mode: .exact)
        guard log.wait(from: from, timeout: timeout, { event in
            if case .seekCompleted = event { return true }
            if case .stateChanged(_, .failed) = event { return true }
            return false
        }) != nil else {
            throw ToolFailure(code: "timeout", message: "Reel's seek to \(target) s did not complete within \(Int(timeout)) s")
        }
        let ms = clock.milliseconds
        if case .failed(let error) = player.state { throw error }
        let frame = player.currentFrame
        // Exact means the frame on screen is the one whose display interval holds the target.
        let exact = frame.map { $0.pts <= target + 1e-6 && target < $0.pts + max($0.duration, 1e-3) - 1e-6 } ?? false
        return Landing(milliseconds: ms, pts: frame?.pts, exact: exact)
    }

    func close() { player.close() }
}
