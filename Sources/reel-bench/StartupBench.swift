import Foundation
import ReelCommandLine
import ReelEngine

/// `bench startup`: from process start to the first frame ready, and to process exit, for
/// `reel-tool play --frames 1` beside `mpv --frames=1`. mpv has no first-frame event for
/// scripts, but its verbose player log says "first video frame after restart shown" the moment
/// it hands the frame to the video output; that line, stamped as it arrives, is its first frame.
/// `ratio` compares exit with exit (the figure needing no log); `ratio_first_frame` is the one
/// to read, because mpv spends a quarter of a second draining its audio buffer before it exits.
/// Threading: runs on the calling thread; children are spawned one at a time.
struct StartupBench {
    let setup: BenchSetup
    let runs: Int

    private let timeout = 60.0

    func run() throws -> [String: Any] {
        let tool = try BenchSetup.sibling("reel-tool", for: "startup")
        let mpv = setup.compare ? try Peer.mpv.locate() : nil
        var firstFrameMs: [Double] = []
        var exitMs: [Double] = []
        var mpvFirstFrameMs: [Double] = []
        var mpvExitMs: [Double] = []
        for i in 1...runs {
            let reel = try runReel(tool)
            firstFrameMs.append(reel.firstFrame)
            exitMs.append(reel.exit)
            var line = "bench startup \(i)/\(runs): reel first frame \(Output.round(reel.firstFrame, 1)) ms, exit \(Output.round(reel.exit, 1)) ms"
            if let mpv {
                let peer = try runMPV(mpv)
                mpvFirstFrameMs.append(peer.firstFrame)
                mpvExitMs.append(peer.exit)
                line += "; mpv first frame \(Output.round(peer.firstFrame, 1)) ms, exit \(Output.round(peer.exit, 1)) ms"
            }
            Output.note(line)
        }
        let firstFrame = Percentiles.median(firstFrameMs)
        let exit = Percentiles.median(exitMs)
        var result: [String: Any] = [
            "bench": "startup", "runs": runs,
            "first_frame_ms": Output.round(firstFrame, 1),
            "exit_ms": Output.round(exit, 1),
        ]
        if !mpvExitMs.isEmpty {
            let peerFirstFrame = Percentiles.median(mpvFirstFrameMs)
            let peerExit = Percentiles.median(mpvExitMs)
            result["mpv_first_frame_ms"] = Output.round(peerFirstFrame, 1)
            result["mpv_exit_ms"] = Output.round(peerExit, 1)
            result["ratio"] = benchRatio(exit, peerExit) as Any
            result["ratio_first_frame"] = benchRatio(firstFrame, peerFirstFrame) as Any
        }
        return result
    }

    /// Spawn → the `first_frame` line on stdout (stamped as it is read), and spawn → exit.
    private func runReel(_ tool: String) throws -> (firstFrame: Double, exit: Double) {
        let child = try ChildProcess(
            path: tool, arguments: ["play", setup.path, "--audio", "null", "--frames", "1", "--json"])
        var firstFrame: HostTime?
        let exit = try child.finish(timeout: timeout) { line in
            guard firstFrame == nil, line.text.contains("first_frame"),
                  let object = (try? JSONSerialization.jsonObject(with: Data(line.text.utf8))) as? [String: Any],
                  object["event"] as? String == "first_frame" else { return }
            firstFrame = line.at
        }
        guard exit.succeeded else {
            let said = exit.stdout.last?.text ?? exit.summary
            throw ToolFailure(code: "internal_error", message: "reel-tool play \(exit.summary); last line: \(said)")
        }
        guard let firstFrame else {
            throw ToolFailure(code: "internal_error", message: "reel-tool play printed no first_frame event")
        }
        return (firstFrame.seconds(since: exit.started) * 1000, exit.wallSeconds * 1000)
    }

    /// Spawn → mpv's "first video frame after restart shown" (its player log at verbose level,
    /// about fifty lines, flushed line by line), and spawn → exit.
    private func runMPV(_ path: String) throws -> (firstFrame: Double, exit: Double) {
        let child = try ChildProcess(
            path: path,
            arguments: ["--no-config", "--vo=null", "--ao=null", "--frames=1", "--msg-level=cplayer=v", setup.path])
        var firstFrame: HostTime?
        let exit = try child.finish(timeout: timeout) { line in
            if firstFrame == nil, line.text.contains("first video frame after restart shown") { firstFrame = line.at }
        }
        guard exit.succeeded else { throw ToolFailure(code: "peer_failed", message: "mpv \(exit.summary)") }
        guard let firstFrame else {
            throw ToolFailure(code: "peer_failed", message: "mpv did not log its first video frame (mpv \(exit.summary))")
        }
        return (firstFrame.seconds(since: exit.started) * 1000, exit.wallSeconds * 1000)
    }
}
