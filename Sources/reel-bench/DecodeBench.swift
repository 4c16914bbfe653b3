import Foundation
import ReelCommandLine
import ReelEngine

/// `bench decode`: how fast the engine turns the video stream into pictures when nothing
/// paces it, beside `ffmpeg -f null` decoding the same stream. Best of N for each, with the
/// runs alternating so that a noisy moment on the machine hits both sides.
/// Reel runs inside this process, its libraries already loaded, so ffmpeg's time leaves out
/// what merely launching ffmpeg costs (the median wall time of `ffmpeg -version`, about 80 ms
/// here, which loads the same libraries); both times then cover probing, decoder set-up and
/// decoding. The unadjusted figure is reported too.
/// Threading: runs on the calling thread; each Reel run owns its player and presenter.
struct DecodeBench {
    let setup: BenchSetup
    let runs: Int

    struct Run {
        let frames: Int
        let seconds: Double
        /// CPU time (user + system, all threads) the run cost. Steadier than wall time on a
        /// shared machine: other tenants slow a run down but hardly change what it costs.
        let cpuSeconds: Double
        var fps: Double { seconds > 0 ? Double(frames) / seconds : 0 }
        var cpuMillisecondsPerFrame: Double { frames > 0 ? cpuSeconds * 1000 / Double(frames) : 0 }
    }

    /// Generous: even a slow machine decodes faster than real time ÷ 10.
    private var timeout: Double { max(120, (setup.duration ?? 600) * 10) }

    func run() throws -> [String: Any] {
        let ffmpeg = setup.compare ? try Peer.ffmpeg.locate() : nil
        let launch = try ffmpeg.map { try launchCost($0) } ?? (seconds: 0, cpuSeconds: 0)
        var reelRuns: [Run] = []
        var peerRuns: [Run] = []
        for i in 1...runs {
            let reel = try runReel()
            reelRuns.append(reel)
            Output.note("bench decode \(i)/\(runs): reel \(Output.round(reel.fps, 1)) fps (\(reel.frames) frames)")
            if let ffmpeg {
                let peer = try runFFmpeg(ffmpeg, launch: launch)
                peerRuns.append(peer)
                Output.note("bench decode \(i)/\(runs): ffmpeg \(Output.round(peer.fps, 1)) fps (\(peer.frames) frames)")
            }
        }
        // Best of N: decode speed has a hard ceiling and noise only ever slows a run down.
        let best = reelRuns.max { $0.fps < $1.fps }!
        var result: [String: Any] = [
            "bench": "decode", "runs": runs,
            "fps": Output.round(best.fps, 1), "frames": best.frames, "seconds": Output.round(best.seconds),
            // The spread, for judging the best: a machine that is noisy for one side shows here.
            "fps_median": Output.round(Percentiles.median(reelRuns.map(\.fps)), 1),
            "cpu_ms_per_frame": Output.round(Percentiles.median(reelRuns.map(\.cpuMillisecondsPerFrame)), 2),
        ]
        if let peer = peerRuns.max(by: { $0.fps < $1.fps }) {
            let wall = Run(frames: peer.frames, seconds: peer.seconds + launch.seconds, cpuSeconds: peer.cpuSeconds)
            result["ffmpeg_fps"] = Output.round(peer.fps, 1)
            result["ffmpeg_frames"] = peer.frames
            result["ffmpeg_seconds"] = Output.round(peer.seconds)
            result["ffmpeg_launch_ms"] = Output.round(launch.seconds * 1000, 1)
            result["ffmpeg_wall_fps"] = Output.round(wall.fps, 1)
            result["ffmpeg_fps_median"] = Output.round(Percentiles.median(peerRuns.map(\.fps)), 1)
            result["ratio"] = benchRatio(best.fps, peer.fps) as Any
            let peerCPU = Percentiles.median(peerRuns.map(\.cpuMillisecondsPerFrame))
            result["ffmpeg_cpu_ms_per_frame"] = Output.round(peerCPU, 2)
            // CPU per frame, Reel / ffmpeg: lower is better.
            result["ratio_cpu"] = benchRatio(Percentiles.median(reelRuns.map(\.cpuMillisecondsPerFrame)), peerCPU) as Any
        }
        return result
    }

    /// The engine in freewheel mode with a presenter pulling as fast as it can, timed from
    /// `open` to the last picture handed out (the player then reports `ended`): probing,
    /// decoder setup, decoding and handing every picture out.
    private func runReel() throws -> Run {
        var configuration = PlayerConfiguration()
        configuration.freewheel = true
        configuration.playsAudio = false     // ffmpeg decodes the video stream only too
        configuration.audioOutput = .null
        let log = PlayerEventRecorder()
        let player = Player(configuration: configuration, events: log.sink)
        let lastPicture = LastPicture()
        let presenter = HeadlessPresenter(player: player, rate: nil) { _ in lastPicture.mark() }
        presenter.start()
        defer { presenter.stop(); player.close() }

        let start = HostTime.now
        let cpuStart = Self.processCPUSeconds()
        player.open(setup.source)
        player.play()
        guard try log.waitUntilLoaded(timeout: 60) else {
            throw ToolFailure(code: "timeout", message: "Reel did not load \(setup.path) within 60 s")
        }
        guard let (end, _) = log.waitForState(timeout: timeout, { $0 == .ended || $0.error != nil }) else {
            throw ToolFailure(code: "timeout", message: "Reel did not decode \(setup.path) within \(Int(timeout)) s")
        }
        if case .failed(let error) = end { throw error }
        guard let last = lastPicture.time else {
            throw ToolFailure(code: "no_frames", message: "Reel handed out no picture from \(setup.path)")
        }
        // Frames handed to the presenter: each went through demux, decode, the queue and out.
        return Run(frames: player.statistics.framesShown, seconds: last.seconds(since: start),
                   cpuSeconds: Self.processCPUSeconds() - cpuStart)
    }

    /// User + system CPU time of this whole process so far.
    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// When the newest picture was handed out. Threading: written by the presenter thread,
    /// read by the bench thread; guarded by a lock.
    private final class LastPicture: @unchecked Sendable {
        // Safe: `at` is guarded by `lock`.
        private let lock = NSLock()
        private var at: HostTime?
        func mark() { lock.lock(); at = .now; lock.unlock() }
        var time: HostTime? { lock.lock(); defer { lock.unlock() }; return at }
    }

    /// What starting and ending an ffmpeg process costs by itself, in wall and CPU time: the
    /// medians of five `ffmpeg -hide_banner -version` runs, spawn to exit.
    private func launchCost(_ path: String) throws -> (seconds: Double, cpuSeconds: Double) {
        var wall: [Double] = [], cpu: [Double] = []
        for _ in 0..<5 {
            let exit = try ChildProcess(path: path, arguments: ["-hide_banner", "-version"]).finish(timeout: 30)
            guard exit.succeeded else { throw ToolFailure(code: "peer_failed", message: "ffmpeg -version \(exit.summary)") }
            wall.append(exit.wallSeconds)
            cpu.append(exit.cpuSeconds)
        }
        return (Percentiles.median(wall), Percentiles.median(cpu))
    }

    /// Wall time of the ffmpeg process less its launch cost, video stream only, frames
    /// counted from its final stats line.
    private func runFFmpeg(_ path: String, launch: (seconds: Double, cpuSeconds: Double)) throws -> Run {
        let child = try ChildProcess(
            path: path, arguments: ["-hide_banner", "-nostats", "-i", setup.path, "-map", "0:v:0", "-f", "null", "-"])
        let exit = try child.finish(timeout: timeout)
        guard exit.succeeded else {
            throw ToolFailure(code: "peer_failed", message: "ffmpeg \(exit.summary)")
        }
        guard let frames = Self.lastFrameCount(in: exit.stderrTail) else {
            throw ToolFailure(code: "peer_failed", message: "no frame count in ffmpeg's output: \(exit.summary)")
        }
        return Run(frames: frames, seconds: exit.wallSeconds - launch.seconds,
                   cpuSeconds: exit.cpuSeconds - launch.cpuSeconds)
    }

    /// The last `frame=  1800` in ffmpeg's progress output.
    static func lastFrameCount(in text: String) -> Int? {
        guard let range = text.range(of: "frame=", options: .backwards) else { return nil }
        let digits = text[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
        return Int(digits)
    }
}
