import Foundation
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
    /// Pull with the engine's `HeadlessPresenter(rate: nil)` instead of `FreewheelPuller`.
    var enginePresenter = false

    struct Run {
        let frames: Int
        let seconds: Double
        var fps: Double { seconds > 0 ? Double(frames) / seconds : 0 }
    }

    /// Generous: even a slow machine decodes faster than real time ÷ 10.
    private var timeout: Double { max(120, (setup.duration ?? 600) * 10) }

    func run() throws -> [String: Any] {
        let ffmpeg = setup.compare ? try Peer.ffmpeg.locate() : nil
        let launch = try ffmpeg.map { try launchSeconds($0) } ?? 0
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
            "presenter": enginePresenter ? "engine" : "bench",
            "fps": Output.round(best.fps, 1), "frames": best.frames, "seconds": Output.round(best.seconds),
            // The spread, for judging the best: a machine that is noisy for one side shows here.
            "fps_median": Output.round(Percentiles.median(reelRuns.map(\.fps)), 1),
        ]
        if let peer = peerRuns.max(by: { $0.fps < $1.fps }) {
            let wall = Run(frames: peer.frames, seconds: peer.seconds + launch)
            result["ffmpeg_fps"] = Output.round(peer.fps, 1)
            result["ffmpeg_frames"] = peer.frames
            result["ffmpeg_seconds"] = Output.round(peer.seconds)
            result["ffmpeg_launch_ms"] = Output.round(launch * 1000, 1)
            result["ffmpeg_wall_fps"] = Output.round(wall.fps, 1)
            result["ffmpeg_fps_median"] = Output.round(Percentiles.median(peerRuns.map(\.fps)), 1)
            result["ratio"] = benchRatio(best.fps, peer.fps) as Any
        }
        return result
    }

    /// The engine in freewheel mode with a presenter pulling as fast as it can, timed from
    /// `open` to the last picture handed out: probing, decoder setup, decoding and handing
    /// every picture out. (`FreewheelPuller` says why it stands in for the engine's
    /// `HeadlessPresenter`, `FreewheelProgress` why it stands in for the `ended` state.)
    private func runReel() throws -> Run {
        var configuration = PlayerConfiguration()
        configuration.freewheel = true
        configuration.playsAudio = false     // ffmpeg decodes the video stream only too
        configuration.audioOutput = .null
        let log = PlayerEventRecorder()
        let player = Player(configuration: configuration, events: log.sink)
        let progress = FreewheelProgress()
        let stopPresenting: () -> Void
        if enginePresenter {
            let presenter = HeadlessPresenter(player: player, rate: nil, onFrame: progress.frameHandedOut)
            presenter.start()
            stopPresenting = presenter.stop
        } else {
            let puller = FreewheelPuller(player: player, onFrame: progress.frameHandedOut)
            puller.start()
            stopPresenting = puller.stop
        }
        defer { stopPresenting(); player.close() }

        let start = HostTime.now
        player.open(setup.source)
        player.play()
        guard try log.waitUntilLoaded(timeout: 60) else {
            throw ToolFailure(code: "timeout", message: "Reel did not load \(setup.path) within 60 s")
        }
        let mediaEnd = setup.duration.map { $0 + setup.info.startTime }
        guard let last = progress.waitForLastFrame(mediaEnd: mediaEnd,
                                                   decodedSoFar: { player.statistics.framesDecoded },
                                                   timeout: timeout) else {
            throw ToolFailure(code: "timeout", message: "Reel did not decode \(setup.path) within \(Int(timeout)) s")
        }
        if case .failed(let error) = player.state { throw error }
        let statistics = player.statistics
        // Frames handed to the presenter: each went through demux, decode, the queue and out.
        return Run(frames: statistics.framesShown, seconds: last.at.seconds(since: start))
    }

    /// What starting and ending an ffmpeg process costs by itself: the median of five
    /// `ffmpeg -hide_banner -version` runs, spawn to exit.
    private func launchSeconds(_ path: String) throws -> Double {
        var samples: [Double] = []
        for _ in 0..<5 {
            let exit = try ChildProcess(path: path, arguments: ["-hide_banner", "-version"]).finish(timeout: 30)
            guard exit.succeeded else { throw ToolFailure(code: "peer_failed", message: "ffmpeg -version \(exit.summary)") }
            samples.append(exit.wallSeconds)
        }
        return Percentiles.median(samples)
    }

    /// Wall time of the ffmpeg process less its launch cost, video stream only, frames
    /// counted from its final stats line.
    private func runFFmpeg(_ path: String, launch: Double) throws -> Run {
        let child = try ChildProcess(
            path: path, arguments: ["-hide_banner", "-nostats", "-i", setup.path, "-map", "0:v:0", "-f", "null", "-"])
        let exit = try child.finish(timeout: timeout)
        guard exit.succeeded else {
            throw ToolFailure(code: "peer_failed", message: "ffmpeg \(exit.summary)")
        }
        guard let frames = Self.lastFrameCount(in: exit.stderrTail) else {
            throw ToolFailure(code: "peer_failed", message: "no frame count in ffmpeg's output: \(exit.summary)")
        }
        return Run(frames: frames, seconds: exit.wallSeconds - launch)
    }

    /// The last `frame=  1800` in ffmpeg's progress output.
    static func lastFrameCount(in text: String) -> Int? {
        guard let range = text.range(of: "frame=", options: .backwards) else { return nil }
        let digits = text[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
        return Int(digits)
    }
}
