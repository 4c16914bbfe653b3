import Foundation
import ReelCommandLine
import ReelEngine

/// `bench page`: a web page's address to the first picture of its video, yt-dlp finding it for
/// both players: Reel (open → first picture, a fresh stream cache each run) beside mpv started
/// on the same address, its ytdl hook running the same yt-dlp (process start → first
/// `playback-restart`). Medians of `runs`.
/// Threading: runs on the calling thread; players' events are read through recorders.
struct PageBench {
    let url: String
    let runs: Int
    let compare: Bool
    private let timeout = 120.0

    func run() throws -> [String: Any] {
        let source = try MediaSource(parsing: url)
        guard source.isRemote else { throw ToolFailure(code: "usage", message: "bench page measures a web page's http(s) address: \(url)") }
        var result: [String: Any] = ["bench": "page", "url": url, "runs": runs]
        // Taken in turns, so that a machine growing busier or quieter during the bench weighs
        // on both players alike (yt-dlp's second or two of CPU is most of each figure).
        let path = compare ? try Peer.mpv.locate() : nil
        var reel: [Double] = [], mpv: [Double] = []
        for _ in 0..<runs {
            reel.append(try reelFirstPicture(source))
            if let path { mpv.append(try mpvFirstPicture(path)) }
        }
        result["first_frame_ms"] = Output.round(Percentiles.median(reel), 1)
        Output.note("bench page: reel first picture \(Output.round(Percentiles.median(reel), 1)) ms (median of \(runs))")
        if compare {
            result["mpv_first_frame_ms"] = Output.round(Percentiles.median(mpv), 1)
            result["ratio_first_frame"] = benchRatio(Percentiles.median(reel), Percentiles.median(mpv)) as Any
            Output.note("bench page: mpv first picture \(Output.round(Percentiles.median(mpv), 1)) ms")
        }
        return result
    }

    private func reelFirstPicture(_ source: MediaSource) throws -> Double {
        let folder = try Self.temporaryFolder("reel-bench-cache")
        defer { Self.remove(folder) }
        var configuration = PlayerConfiguration()
        configuration.audioOutput = .null
        configuration.streamCache.directory = folder + "/streams"
        let log = PlayerEventRecorder()
        let player = Player(configuration: configuration, events: log.sink)
        let presenter = HeadlessPresenter(player: player)
        presenter.start()
        defer { presenter.stop(); player.close() }
        let clock = Stopwatch()
        player.open(source)
        guard log.wait(from: 0, timeout: timeout, { event in
            if case .firstFrameShown = event { return true }
            if case .stateChanged(_, .failed) = event { return true }
            return false
        }) != nil, player.state.error == nil else {
            throw ToolFailure(code: "reel_failed", message: "Reel showed no picture of \(url): \(player.state)")
        }
        return clock.milliseconds
    }

    private func mpvFirstPicture(_ path: String) throws -> Double {
        let folder = try Self.temporaryFolder("reel-bench-mpv")
        defer { Self.remove(folder) }
        let clock = Stopwatch()
        // --no-config keeps the user's settings out; the ytdl hook is built in and on.
        let child = try ChildProcess(path: path,
                                     arguments: ["--no-config", "--idle=no", "--vo=null", "--ao=null", "--pause", "--ytdl=yes",
                                                 "--input-ipc-server=\(folder)/ipc.sock", url],
                                     stdout: .file(folder + "/mpv.log"), stderr: .file(folder + "/mpv.log"))
        defer { child.stop(grace: 2) }
        let client = try MPVClient(socketPath: folder + "/ipc.sock", timeout: 10)
        let first = try client.wait(deadline: HostTime.now.adding(seconds: timeout)) { $0.event == "playback-restart" }
        try? client.send(["quit"], requestID: 0)
        return first.at.seconds(since: clock.start) * 1000
    }

    /// A folder of the run's own under /tmp, removed even when the bench is interrupted.
    private static func temporaryFolder(_ prefix: String) throws -> String {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ToolFailure(code: "internal_error", message: "cannot make a folder in /tmp") }
        let folder = String(cString: made)
        BenchInterrupt.shared.register(directory: folder)
        return folder
    }

    private static func remove(_ folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
        BenchInterrupt.shared.unregister(directory: folder)
    }
}
