import Foundation
import ReelCommandLine
import ReelEngine

/// `bench preview`: hover previews. Three measurements in one run:
///
/// 1. Uncached: request → delivered thumbnail for seeded random positions, on a provider that
///    keeps nothing (every request decodes), beside the second-process way mpv's thumbnail
///    scripts work: one `ffmpeg -noaccurate_seek -ss T -i FILE -frames:v 1 -vf scale=W:H` per
///    picture, timed from spawn to exit. Reel and ffmpeg take the same positions in turn.
/// 2. Cached: the same positions asked again of a provider with the default cache.
/// 3. Playback undisturbed: a player plays the file (through PulseAudio when a server answers,
///    presented at 60 Hz) for a stretch without previews and a stretch with previews requested
///    at 30 per second from random positions, none cached; frames dropped and the A/V drift of
///    each stretch are compared.
/// Threading: runs on the calling thread; deliveries arrive on the provider's thread and are
/// handed over through a condition.
struct PreviewBench {
    let setup: BenchSetup
    let targets: Int
    let seed: UInt64
    /// Seconds of each playback stretch.
    var playSeconds = 10.0
    var requestsPerSecond = 30.0

    private let perRequestTimeout = 30.0

    func run() throws -> [String: Any] {
        guard let duration = setup.duration, duration > 1 else {
            throw ToolFailure(code: "usage", message: "bench preview needs media longer than 1 s with a known duration")
        }
        guard let video = setup.info.videoStream else {
            throw PlayerError.noPlayableStream("\(setup.path) has no video stream to preview")
        }
        let ffmpeg = setup.compare ? try Peer.ffmpeg.locate() : nil
        let size = ThumbnailSize.standard
        let pixels = size.pixels(for: video)
        let points = SeekBench.targets(count: targets, duration: duration, seed: seed)
        Output.note("bench preview: \(points.count) positions, seed \(seed), \(pixels.width)×\(pixels.height)")

        // 1. Uncached.
        let uncached = Waiter()
        let cold = ThumbnailProvider(source: setup.source, size: size, cacheBytes: 0, deliver: uncached.deliver)
        defer { cold.close() }
        // The first request opens the file: reported apart, as a person's first hover.
        let first = try uncached.time(cold, at: duration / 2, timeout: perRequestTimeout)
        var reelMs: [Double] = []
        var ffmpegMs: [Double] = []
        for (i, t) in points.enumerated() {
            let ms = try uncached.time(cold, at: t, timeout: perRequestTimeout)
            reelMs.append(ms)
            var line = "bench preview \(i + 1)/\(points.count) at \(t) s: reel \(Output.round(ms, 1)) ms"
            if let ffmpeg {
                let peer = try Self.ffmpegThumbnail(ffmpeg, file: setup.path, at: t, width: pixels.width, height: pixels.height)
                ffmpegMs.append(peer)
                line += ", ffmpeg \(Output.round(peer, 1)) ms"
            }
            Output.note(line)
        }

        // 2. Cached: fill, then ask again.
        let cachedWaiter = Waiter()
        let warm = ThumbnailProvider(source: setup.source, size: size, deliver: cachedWaiter.deliver)
        defer { warm.close() }
        for t in points { _ = try cachedWaiter.time(warm, at: t, timeout: perRequestTimeout) }
        var cachedMs: [Double] = []
        for t in points { cachedMs.append(try cachedWaiter.time(warm, at: t, timeout: perRequestTimeout, expectCached: true)) }

        // 3. Playback with and without previews.
        let play = try playWithPreviews(duration: duration, size: size)

        var result: [String: Any] = [
            "bench": "preview", "seed": seed, "targets": points.count,
            "size": "\(pixels.width)x\(pixels.height)",
            "first_ms": Output.round(first, 1),
            "median_ms": Output.round(Percentiles.median(reelMs), 1),
            "p95_ms": Output.round(Percentiles.percentile(reelMs, 95), 1),
            "max_ms": Output.round(reelMs.max()!, 1),
            "cached_median_ms": Output.round(Percentiles.median(cachedMs), 3),
            "cached_p95_ms": Output.round(Percentiles.percentile(cachedMs, 95), 3),
        ]
        result.merge(play) { a, _ in a }
        if !ffmpegMs.isEmpty {
            let median = Percentiles.median(reelMs), p95 = Percentiles.percentile(reelMs, 95)
            let peerMedian = Percentiles.median(ffmpegMs), peerP95 = Percentiles.percentile(ffmpegMs, 95)
            result["ffmpeg_median_ms"] = Output.round(peerMedian, 1)
            result["ffmpeg_p95_ms"] = Output.round(peerP95, 1)
            result["ratio_median"] = benchRatio(median, peerMedian) as Any
            result["ratio_p95"] = benchRatio(p95, peerP95) as Any
        }
        return result
    }

    /// One thumbnail by a second process, as mpv's thumbnail scripts make them: spawn to exit.
    private static func ffmpegThumbnail(_ ffmpeg: String, file: String, at t: Double, width: Int, height: Int) throws -> Double {
        let child = try ChildProcess(path: ffmpeg, arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-noaccurate_seek", "-ss", String(t), "-i", file,
            "-map", "0:v:0", "-an", "-sn", "-frames:v", "1", "-vf", "scale=\(width):\(height)",
            "-f", "rawvideo", "-pix_fmt", "rgba", "-y", "/dev/null",
        ], stdout: .discard)
        let exit = try child.finish(timeout: 60)
        guard exit.succeeded else { throw ToolFailure(code: "peer_failed", message: "ffmpeg \(exit.summary)") }
        return exit.wallSeconds * 1000
    }

    /// Plays `playSeconds` without previews, then as long again with previews requested at
    /// `requestsPerSecond` from seeded random positions, each uncached; compares the stretches.
    private func playWithPreviews(duration: Double, size: ThumbnailSize) throws -> [String: Any] {
        guard duration >= playSeconds * 2 + 2 else {
            Output.note("bench preview: \(Output.round(duration)) s is too short for the playback part; skipped")
            return [:]
        }
        let frames = FrameLog()
        var configuration = PlayerConfiguration()
        // Through PulseAudio when a server answers (the clock is then the sound card's, as in
        // bench play); silent on the monotonic clock otherwise. The result says which.
        configuration.audioOutput = .pulse
        configuration.observesEveryFrame = true
        let recorder = PlayerEventRecorder()
        recorder.setForward(frames.record)
        let player = Player(configuration: configuration, events: recorder.sink)
        defer { player.close() }
        player.open(setup.source)
        guard try recorder.waitUntilLoaded(timeout: 60) else {
            throw ToolFailure(code: "timeout", message: "Reel did not load \(setup.path) within 60 s")
        }
        let presenter = HeadlessPresenter(player: player, rate: 60)
        presenter.start()
        defer { presenter.stop() }
        player.play()
        // Settle for a second (start-up is not what is measured), then the two stretches.
        usleep(1_000_000)
        let idle = try stretch(player: player, frames: frames, previews: nil)
        let delivered = Counter()
        let previews = ThumbnailProvider(source: setup.source, size: size, cacheBytes: 0) { _ in delivered.add() }
        defer { previews.close() }
        let busy = try stretch(player: player, frames: frames, previews: previews)
        let stats = previews.statistics
        Output.note("bench preview: playing, idle: \(idle.dropped) dropped, drift p95 \(idle.driftP95) ms; "
                    + "with previews: \(busy.dropped) dropped, drift p95 \(busy.driftP95) ms, "
                    + "\(delivered.value) previews of \(stats.requests) requests")
        return [
            "play_seconds": playSeconds,
            "play_audio_output": player.statistics.audioOutput ?? "none",
            "play_frames_idle": idle.shown, "play_dropped_idle": idle.dropped,
            "play_drift_p95_ms_idle": Output.round(idle.driftP95, 2),
            "play_drift_max_ms_idle": Output.round(idle.driftMax, 2),
            "play_frames_previews": busy.shown, "play_dropped_previews": busy.dropped,
            "play_drift_p95_ms_previews": Output.round(busy.driftP95, 2),
            "play_drift_max_ms_previews": Output.round(busy.driftMax, 2),
            "play_previews_requested": stats.requests, "play_previews_delivered": delivered.value,
        ]
    }

    private struct Stretch {
        let shown: Int
        let dropped: Int
        let driftP95: Double
        let driftMax: Double
    }

    private func stretch(player: Player, frames: FrameLog, previews: ThumbnailProvider?) throws -> Stretch {
        let droppedBefore = player.statistics.framesDropped
        frames.reset()
        let start = HostTime.now
        if let previews {
            var tick = start
            var next = SeekBench.targets(count: Int(playSeconds * requestsPerSecond) + 1,
                                         duration: setup.duration ?? 1, seed: seed ^ 0x7072_6576).makeIterator()
            while HostTime.now.seconds(since: start) < playSeconds, let t = next.next() {
                previews.request(at: t)
                tick = tick.adding(seconds: 1 / requestsPerSecond)
                Self.sleep(until: tick)
            }
        } else {
            Self.sleep(until: start.adding(seconds: playSeconds))
        }
        if case .failed(let error) = player.state { throw error }
        let drifts = frames.drifts.map { abs($0) * 1000 }
        return Stretch(shown: drifts.count, dropped: player.statistics.framesDropped - droppedBefore,
                       driftP95: drifts.isEmpty ? 0 : Percentiles.percentile(drifts, 95),
                       driftMax: drifts.max() ?? 0)
    }

    private static func sleep(until time: HostTime) {
        var ts = timespec(tv_sec: Int(time.nanoseconds / 1_000_000_000), tv_nsec: Int(time.nanoseconds % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}

/// Hands deliveries from the provider's thread to the bench's, and times requests.
/// Threading: `deliver` on the provider's thread, the rest on the bench's thread.
private final class Waiter: @unchecked Sendable {
    // Safe: `results` is guarded by `condition`.
    private let condition = NSCondition()
    private var results: [ThumbnailResult] = []

    var deliver: @Sendable (ThumbnailResult) -> Void {
        { [self] result in
            condition.lock()
            results.append(result)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Milliseconds from `request(at:)` to the delivery that answers it.
    func time(_ provider: ThumbnailProvider, at t: Double, timeout: Double, expectCached: Bool = false) throws -> Double {
        condition.lock()
        results.removeAll()
        condition.unlock()
        let clock = Stopwatch()
        provider.request(at: t)
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = results.first(where: { $0.requestedTime == t }) {
                let ms = clock.milliseconds
                switch result.outcome {
                case .success(let thumbnail):
                    if expectCached && !thumbnail.fromCache {
                        throw ToolFailure(code: "internal_error", message: "the picture at \(t) s was not cached the second time")
                    }
                    return ms
                case .failure(let error):
                    throw ToolFailure(code: error.code, message: "no thumbnail at \(t) s: \(error.message)")
                }
            }
            if !condition.wait(until: deadline) {
                throw ToolFailure(code: "timeout", message: "no thumbnail at \(t) s within \(Int(timeout)) s")
            }
        }
    }
}

/// The drift of every picture shown, from the player's `.frameShown` events.
/// Threading: `record` on the player's control thread, the rest on the bench's thread; locked.
private final class FrameLog: @unchecked Sendable {
    // Safe: `values` is guarded by `lock`.
    private let lock = NSLock()
    private var values: [Double] = []

    var record: @Sendable (PlayerEvent) -> Void {
        { [self] event in
            guard case .frameShown(let report) = event, let drift = report.drift else { return }
            lock.lock(); values.append(drift); lock.unlock()
        }
    }

    func reset() { lock.lock(); values.removeAll(); lock.unlock() }
    var drifts: [Double] { lock.lock(); defer { lock.unlock() }; return values }
}

/// Threading: any thread; locked.
private final class Counter: @unchecked Sendable {
    // Safe: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
