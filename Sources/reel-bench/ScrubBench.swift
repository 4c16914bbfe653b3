import Foundation
import ReelCommandLine
import ReelEngine

/// `bench scrub`: a simulated scrubber drag across the whole file (start to end in `seconds`
/// of wall time, 60 position updates a second, as a pointer drag delivers them), then the
/// release. Figures: distinct pictures on screen per second of drag (the picture is sampled at
/// every update, as a 60 Hz display would show it), and the time from the release to the exact
/// picture. mpv beside it, driven the same way over IPC: `seek T absolute+keyframes` at every
/// update, `seek T absolute+exact` on release. Its pictures are the distinct time-pos values
/// it reports once a seek has restarted playback (while seeking it reports the target).
/// Threading: runs on the calling thread; Reel's events are read through the recorder.
struct ScrubBench {
    let setup: BenchSetup
    let drags: Int
    let seconds: Double

    private let timeout = 30.0
    private let rate = 60.0

    func run() throws -> [String: Any] {
        guard let duration = setup.duration, duration > 2 else {
            throw ToolFailure(code: "usage", message: "bench scrub needs media longer than 2 s with a known duration")
        }
        let mpvPath = setup.compare ? try Peer.mpv.locate() : nil
        Output.note("bench scrub: \(drags) drags over \(Output.round(duration, 1)) s of media in \(seconds) s each, \(Int(rate)) updates/s")

        var reelRates: [Double] = [], reelRelease: [Double] = [], mpvRates: [Double] = [], mpvRelease: [Double] = []
        var mpvRestarts: [Double] = []
        var inexact = 0
        for i in 0..<drags {
            // Alternate directions, and release a little inside the file (not on its last frame).
            let forward = i % 2 == 0
            let from = forward ? 0 : duration * 0.98, to = forward ? duration * 0.98 : 0.0
            let release = Output.round(forward ? duration * 0.97 : duration * 0.013, 3)
            let reel = try ReelScrubber(setup: setup, timeout: timeout)
            let r = try reel.drag(from: from, to: to, seconds: seconds, rate: rate, release: release)
            reel.close()
            reelRates.append(r.distinctPerSecond)
            reelRelease.append(r.releaseMilliseconds)
            if !r.exact { inexact += 1 }
            var line = "bench scrub \(i + 1)/\(drags): reel \(Output.round(r.distinctPerSecond, 1)) pictures/s, "
                + "release \(Output.round(r.releaseMilliseconds, 1)) ms"
            if let mpvPath {
                let mpv = try MPVPeer(path: mpvPath, file: setup.path, timeout: timeout)
                defer { mpv.close() }
                let m = try drag(mpv, from: from, to: to, release: release)
                mpvRates.append(m.perSecond)
                mpvRestarts.append(m.restartsPerSecond)
                mpvRelease.append(m.releaseMilliseconds)
                line += "; mpv \(Output.round(m.perSecond, 1)) pictures/s (\(Output.round(m.restartsPerSecond, 1)) restarts/s), "
                    + "release \(Output.round(m.releaseMilliseconds, 1)) ms"
            }
            Output.note(line)
        }
        let mean = { (values: [Double]) in values.reduce(0, +) / Double(max(values.count, 1)) }
        var result: [String: Any] = [
            "bench": "scrub", "drags": drags, "drag_seconds": seconds, "updates_per_second": rate,
            "pictures_per_second": Output.round(mean(reelRates), 1),
            "release_median_ms": Output.round(Percentiles.median(reelRelease), 1),
            "release_max_ms": Output.round(reelRelease.max()!, 1),
            "inexact": inexact,
        ]
        if !mpvRates.isEmpty {
            result["mpv_pictures_per_second"] = Output.round(mean(mpvRates), 1)
            // An upper bound on mpv's pictures: every seek that restarted playback, distinct or not.
            result["mpv_restarts_per_second"] = Output.round(mean(mpvRestarts), 1)
            result["mpv_release_median_ms"] = Output.round(Percentiles.median(mpvRelease), 1)
            result["mpv_release_max_ms"] = Output.round(mpvRelease.max()!, 1)
            result["ratio_pictures_per_second"] = benchRatio(mean(reelRates), mean(mpvRates)) as Any
            result["ratio_release_median"] = benchRatio(Percentiles.median(reelRelease), Percentiles.median(mpvRelease)) as Any
        }
        return result
    }

    /// mpv's drag: a key-frame seek per update, without waiting.
    private func drag(_ mpv: MPVPeer, from: Double, to: Double, release: Double) throws
        -> (perSecond: Double, restartsPerSecond: Double, releaseMilliseconds: Double) {
        try mpv.observeTimePosition()
        try mpv.drain(for: 0.2)
        mpv.resetDistinct()
        let updates = Int(seconds * rate)
        let start = HostTime.now
        for k in 0...updates {
            let position = from + (to - from) * Double(k) / Double(updates)
            try mpv.send(["seek", Output.round(position, 3), "absolute+keyframes"], requestID: 500_000 + k)
            try mpv.drain()
            sleep(until: start.adding(seconds: Double(k + 1) / rate))
        }
        let elapsed = HostTime.now.seconds(since: start)
        try mpv.drain()
        let shown = Double(mpv.distinctPositions), restarts = Double(mpv.restarts)
        let ms = try mpv.seek(to: release, flags: "absolute+exact", requestID: 900_001)
        return (shown / elapsed, restarts / elapsed, ms)
    }
}

/// Sleeps until a monotonic time (no-op when it has passed).
func sleep(until time: HostTime) {
    let now = HostTime.now
    guard time > now else { return }
    var ts = timespec(tv_sec: Int(time.nanoseconds / 1_000_000_000), tv_nsec: Int(time.nanoseconds % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
}

/// Reel's side of the scrub bench: a fresh paused player per drag, sound into the null output.
/// Threading: used from the bench's thread only.
private final class ReelScrubber {
    struct Result {
        let distinctPerSecond: Double
        let releaseMilliseconds: Double
        let exact: Bool
    }

    private let log = PlayerEventRecorder()
    private let player: Player
    private let timeout: Double

    init(setup: BenchSetup, timeout: Double) throws {
        player = try setup.loadedPlayer(recording: log)
        self.timeout = timeout
    }

    func drag(from: Double, to: Double, seconds: Double, rate: Double, release: Double) throws -> Result {
        let updates = Int(seconds * rate)
        var seen = Set<Double>()
        let start = HostTime.now
        for k in 0...updates {
            // What a display refreshing now would show, then the pointer's next position.
            if k > 0, let pts = player.currentFrame?.pts { seen.insert(pts) }
            player.scrub(to: from + (to - from) * Double(k) / Double(updates))
            sleep(until: start.adding(seconds: Double(k + 1) / rate))
        }
        if let pts = player.currentFrame?.pts { seen.insert(pts) }
        let elapsed = HostTime.now.seconds(since: start)
        let mark = log.count
        let clock = Stopwatch()
        player.endScrub(at: release)
        guard log.wait(from: mark, timeout: timeout, { event in
            if case .seekCompleted(let p) = event { return abs(p - release) < 1e-6 }
            if case .stateChanged(_, .failed) = event { return true }
            return false
        }) != nil else {
            throw ToolFailure(code: "timeout", message: "Reel's release at \(release) s did not land within \(Int(timeout)) s")
        }
        let ms = clock.milliseconds
        if case .failed(let error) = player.state { throw error }
        let frame = player.currentFrame
        let exact = frame.map { $0.pts <= release + 1e-6 && release < $0.pts + max($0.duration, 1e-3) - 1e-6 } ?? false
        return Result(distinctPerSecond: Double(seen.count) / elapsed, releaseMilliseconds: ms, exact: exact)
    }

    func close() { player.close() }
}
