import Foundation
import ReelCommandLine
import ReelEngine

/// `bench click`: a click on the scrubber where the pointer rested, while paused, from the
/// click to the exact picture on screen. Reel as the window does it (the pointer rests, the
/// picture there is decoded ahead, then the press and release: `scrub` and `endScrub` at the
/// same time), Reel without the rest (an ordinary click), and mpv's click-seek
/// (`seek T absolute+exact` → `playback-restart` over IPC). The same random targets for all
/// three, each player open for the whole run. Also: how long the decoding ahead took, which a
/// rest must outlast for the click to find the picture ready; and the pictures dropped while
/// playing with pictures decoded ahead twice a second, against playing without.
/// Threading: runs on the calling thread; Reel's events are read through the recorders.
struct ClickBench {
    let setup: BenchSetup
    let targets: Int
    let seed: UInt64
    /// How long each of the two playing stretches lasts.
    let playSeconds: Double

    private let timeout = 30.0

    func run() throws -> [String: Any] {
        guard let duration = setup.duration, duration > 1 else {
            throw ToolFailure(code: "usage", message: "bench click needs media longer than 1 s with a known duration")
        }
        let mpvPath = setup.compare ? try Peer.mpv.locate() : nil
        let points = SeekBench.targets(count: targets, duration: duration, seed: seed)
        Output.note("bench click: \(points.count) targets in [0, \(Output.round(duration - 1))] s, seed \(seed)")

        let rested = try Clicker(setup: setup, timeout: timeout)
        defer { rested.close() }
        let plain = try Clicker(setup: setup, timeout: timeout)
        defer { plain.close() }
        let mpv = try mpvPath.map { try MPVPeer(path: $0, file: setup.path, timeout: timeout) }
        defer { mpv?.close() }

        var restedMs: [Double] = [], plainMs: [Double] = [], mpvMs: [Double] = [], aheadMs: [Double] = []
        var inexact = 0, unserved = 0
        for (i, target) in points.enumerated() {
            aheadMs.append(try rested.prefetch(at: target))
            let r = try rested.click(at: target)
            let p = try plain.click(at: target)
            restedMs.append(r.milliseconds)
            plainMs.append(p.milliseconds)
            if !r.exact || !p.exact { inexact += 1 }
            if !r.served { unserved += 1 }
            var line = "bench click \(i + 1)/\(points.count) → \(target) s: rested \(Output.round(r.milliseconds, 2)) ms "
                + "(decoded ahead in \(Output.round(aheadMs.last!, 1)) ms), plain \(Output.round(p.milliseconds, 1)) ms"
            if let mpv {
                let ms = try mpv.seek(to: target, flags: "absolute+exact", requestID: i + 1)
                mpvMs.append(ms)
                line += ", mpv \(Output.round(ms, 1)) ms"
            }
            Output.note(line)
        }
        let drops = try PlayingPrefetchDrops(setup: setup, targets: points, seconds: playSeconds).run()
        Output.note("bench click: playing \(Output.round(playSeconds, 1)) s, \(drops.withAhead) pictures dropped with \(drops.decodedAhead) decoded ahead, "
            + "\(drops.without) without")
        let median = Percentiles.median(restedMs), plainMedian = Percentiles.median(plainMs)
        var result: [String: Any] = [
            "bench": "click", "seed": seed, "targets": points.count,
            "median_ms": Output.round(median, 2), "p95_ms": Output.round(Percentiles.percentile(restedMs, 95), 2),
            "max_ms": Output.round(restedMs.max()!, 2),
            "plain_median_ms": Output.round(plainMedian, 1),
            "plain_p95_ms": Output.round(Percentiles.percentile(plainMs, 95), 1),
            "ahead_median_ms": Output.round(Percentiles.median(aheadMs), 1),
            "ahead_p95_ms": Output.round(Percentiles.percentile(aheadMs, 95), 1),
            "ratio_median_vs_plain": benchRatio(median, plainMedian) as Any,
            "inexact": inexact, "not_served_ahead": unserved,
            "playing_dropped_with_ahead": drops.withAhead, "playing_dropped_without": drops.without,
            "playing_decoded_ahead": drops.decodedAhead,
        ]
        if !mpvMs.isEmpty {
            let mpvMedian = Percentiles.median(mpvMs)
            result["mpv_median_ms"] = Output.round(mpvMedian, 1)
            result["mpv_p95_ms"] = Output.round(Percentiles.percentile(mpvMs, 95), 1)
            result["ratio_median"] = benchRatio(median, mpvMedian) as Any
            result["ratio_plain_median"] = benchRatio(plainMedian, mpvMedian) as Any
        }
        return result
    }
}

/// One paused Reel player clicked at times, as the scrubber clicks.
/// Threading: used from the bench's thread only.
private final class Clicker {
    struct Click {
        let milliseconds: Double
        let exact: Bool
        let served: Bool
    }

    private let log = PlayerEventRecorder()
    private let player: Player
    private let timeout: Double

    init(setup: BenchSetup, timeout: Double) throws {
        player = try setup.loadedPlayer(recording: log)
        self.timeout = timeout
    }

    /// The pointer rests at `target`: returns how long the picture there took to be decoded ahead.
    func prefetch(at target: Double) throws -> Double {
        let clock = Stopwatch()
        player.prefetchPicture(at: target)
        let deadline = HostTime.now.adding(seconds: timeout)
        while player.prefetchedPicture != target {
            guard HostTime.now < deadline else {
                throw ToolFailure(code: "timeout", message: "the picture at \(target) s was not decoded ahead within \(Int(timeout)) s")
            }
            usleep(500)
        }
        return clock.milliseconds
    }

    /// Press and release at `target`: the time until the exact picture is the one on screen,
    /// then the landing awaited (the next click starts from a settled player).
    func click(at target: Double) throws -> Click {
        let served = player.statistics.prefetchesServed
        let mark = log.count
        let clock = Stopwatch()
        player.scrub(to: target)
        player.endScrub(at: target)
        var ms: Double?
        guard log.wait(from: mark, timeout: timeout, { event in
            switch event {
            case .displayInvalidated, .seekCompleted:
                if ms == nil, Self.holds(player.currentFrame, target) { ms = clock.milliseconds }
                if case .seekCompleted(let p) = event { return abs(p - target) < 1e-6 }
                return false
            case .stateChanged(_, .failed): return true
            default: return false
            }
        }) != nil else {
            throw ToolFailure(code: "timeout", message: "Reel's click at \(target) s did not land within \(Int(timeout)) s")
        }
        if case .failed(let error) = player.state { throw error }
        let exact = Self.holds(player.currentFrame, target)
        return Click(milliseconds: ms ?? clock.milliseconds, exact: exact,
                     served: player.statistics.prefetchesServed > served)
    }

    private static func holds(_ frame: VideoFrame?, _ target: Double) -> Bool {
        frame.map { $0.pts <= target + 1e-6 && target < $0.pts + max($0.duration, 1e-3) - 1e-6 } ?? false
    }

    func close() { player.close() }
}
