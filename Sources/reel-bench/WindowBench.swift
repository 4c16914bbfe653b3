import Foundation
import ReelCommandLine
import ReelEngine
#if canImport(Glibc)
import Glibc
#endif

/// `bench window`: the real `reel` app beside `mpv --vo=gpu`, both drawing into windows on the
/// same X display and playing through PulseAudio. Per run and player: launch → first picture
/// on screen; CPU seconds over 20 s of playing (utime + stime from /proc/PID/stat, sampled at
/// the first picture and 20 s later, the same way for both) and the frames each dropped; CPU
/// seconds over 10 s launched paused. Reel reports through `--report` (`first_frame_drawn`, and
/// a summary at quit); mpv through its verbose player log and its IPC socket.
/// Threading: runs on the calling thread; children are spawned one at a time.
struct WindowBench {
    let setup: BenchSetup
    let runs: Int

    static let playingSeconds = 20.0
    static let pausedSeconds = 10.0
    /// Reel quits by itself this long after the tool's last sample is due, so that its process
    /// is surely still there to be sampled (the tool sees the first picture slightly after Reel).
    private static let reelGrace = 1.0
    private let launchTimeout = 60.0
    private let quitTimeout = 30.0

    private struct Sample {
        let firstFrameMs: Double
        let cpuSeconds: Double
        var framesDropped = 0
        var framesDrawn = 0
        var framesDelayed = 0
    }

    func run() throws -> [String: Any] {
        guard let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty else {
            throw ToolFailure(code: "no_display", message: """
                bench window opens real windows and needs an X display (DISPLAY is unset). \
                Run it under xvfb-run -s "-screen 0 1920x1080x24", or start Xvfb :77 -screen 0 1920x1080x24 \
                and export DISPLAY=:77 (see BENCHMARKS.md)
                """)
        }
        guard let duration = setup.duration, duration > Self.playingSeconds + Self.reelGrace + 2 else {
            throw ToolFailure(code: "usage", message: "bench window plays \(Int(Self.playingSeconds)) s: it needs media "
                + "longer than \(Int(Self.playingSeconds + Self.reelGrace + 2)) s with a known duration")
        }
        let reel = try BenchSetup.sibling("reel", for: "window")
        let mpv = setup.compare ? try Peer.mpv.locate() : nil
        try PlayBench.requireSoundServer(for: "window")
        Output.note("bench window: reel \(reel) on DISPLAY=\(display)")

        var reelPlaying: [Sample] = [], reelPaused: [Sample] = []
        var mpvPlaying: [Sample] = [], mpvPaused: [Sample] = []
        for i in 1...runs {
            let playing = try runReel(reel, paused: false)
            reelPlaying.append(playing)
            var line = "bench window \(i)/\(runs): reel first frame \(Output.round(playing.firstFrameMs, 1)) ms, "
                + "cpu \(Output.round(playing.cpuSeconds, 2)) s, drawn \(playing.framesDrawn), dropped \(playing.framesDropped)"
            if let mpv {
                let peer = try runMPV(mpv, paused: false)
                mpvPlaying.append(peer)
                line += "; mpv first frame \(Output.round(peer.firstFrameMs, 1)) ms, cpu \(Output.round(peer.cpuSeconds, 2)) s, "
                    + "dropped \(peer.framesDropped), delayed \(peer.framesDelayed)"
            }
            let paused = try runReel(reel, paused: true)
            reelPaused.append(paused)
            line += "; paused: reel cpu \(Output.round(paused.cpuSeconds, 2)) s"
            if let mpv {
                let peer = try runMPV(mpv, paused: true)
                mpvPaused.append(peer)
                line += ", mpv cpu \(Output.round(peer.cpuSeconds, 2)) s"
            }
            Output.note(line)
        }

        func median(_ samples: [Sample], _ value: (Sample) -> Double) -> Double {
            Percentiles.median(samples.map(value))
        }
        let firstFrame = median(reelPlaying) { $0.firstFrameMs }
        let cpu = median(reelPlaying) { $0.cpuSeconds }
        let pausedCPU = median(reelPaused) { $0.cpuSeconds }
        let dropped = median(reelPlaying) { Double($0.framesDropped) }
        var result: [String: Any] = [
            "bench": "window", "runs": runs,
            "playing_s": Self.playingSeconds, "paused_s": Self.pausedSeconds,
            "first_frame_ms": Output.round(firstFrame, 1),
            "paused_first_frame_ms": Output.round(median(reelPaused) { $0.firstFrameMs }, 1),
            "cpu_s": Output.round(cpu, 2),
            "paused_cpu_s": Output.round(pausedCPU, 2),
            "frames_dropped": dropped,
            "frames_drawn": median(reelPlaying) { Double($0.framesDrawn) },
        ]
        if !mpvPlaying.isEmpty {
            let peerFirstFrame = median(mpvPlaying) { $0.firstFrameMs }
            let peerCPU = median(mpvPlaying) { $0.cpuSeconds }
            let peerPausedCPU = median(mpvPaused) { $0.cpuSeconds }
            let peerDropped = median(mpvPlaying) { Double($0.framesDropped) }
            result["mpv_first_frame_ms"] = Output.round(peerFirstFrame, 1)
            result["mpv_paused_first_frame_ms"] = Output.round(median(mpvPaused) { $0.firstFrameMs }, 1)
            result["mpv_cpu_s"] = Output.round(peerCPU, 2)
            result["mpv_paused_cpu_s"] = Output.round(peerPausedCPU, 2)
            result["mpv_frames_dropped"] = peerDropped
            result["mpv_frames_delayed"] = median(mpvPlaying) { Double($0.framesDelayed) }
            result["ratio_first_frame"] = benchRatio(firstFrame, peerFirstFrame) as Any
            result["ratio_cpu"] = benchRatio(cpu, peerCPU) as Any
            result["ratio_paused_cpu"] = benchRatio(pausedCPU, peerPausedCPU) as Any
            result["ratio_frames_dropped"] = benchRatio(dropped, peerDropped) as Any
        }
        return result
    }

    // MARK: Reel

    /// `reel --report --exit-after S [--paused] FILE`: its `first_frame_drawn` line (stamped as
    /// read) starts the window; its summary at quit gives the frames drawn and dropped.
    private func runReel(_ path: String, paused: Bool) throws -> Sample {
        let window = paused ? Self.pausedSeconds : Self.playingSeconds
        var arguments = ["--report", "--exit-after", "\(window + Self.reelGrace)"]
        if paused { arguments.append("--paused") }
        let child = try ChildProcess(path: path, arguments: arguments + [setup.path])
        let first = try child.readLines(until: HostTime.now.adding(seconds: launchTimeout)) { Self.event($0.text) == "first_frame_drawn" }
        guard let first else { throw try gaveUp(child, "reel", waitingFor: "drew no picture") }
        let (firstFrameMs, cpu) = try measure(child, "reel", from: first, seconds: window)

        let exit = try child.finish(timeout: quitTimeout)
        let summary = exit.stdout.compactMap { Self.object($0.text) }.last { $0["event"] as? String == "summary" }
        guard exit.succeeded else {
            let when = summary == nil ? "" : " after printing its summary"
            throw ToolFailure(code: "internal_error", message: "reel\(when) \(exit.summary)")
        }
        guard let summary else { throw ToolFailure(code: "internal_error", message: "reel --report printed no summary line") }
        let output = summary["audio_output"] as? String ?? "none"
        guard output == "pulse" else { throw PlayBench.noSoundServer("Reel played through '\(output)'", bench: "window") }
        var sample = Sample(firstFrameMs: firstFrameMs, cpuSeconds: cpu)
        sample.framesDropped = summary["frames_dropped"] as? Int ?? 0
        sample.framesDrawn = summary["frames_drawn"] as? Int ?? 0
        return sample
    }

    // MARK: mpv

    /// `mpv --vo=gpu --ao=pulse` with its IPC socket; "first video frame after restart shown"
    /// (its verbose player log) starts the window; dropped and delayed frames are read over IPC
    /// at its end, then mpv is told to quit.
    private func runMPV(_ path: String, paused: Bool) throws -> Sample {
        let window = paused ? Self.pausedSeconds : Self.playingSeconds
        var template = Array("/tmp/reel-bench-mpv-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ToolFailure(code: "internal_error", message: "cannot create a directory for mpv's socket")
        }
        let directory = String(cString: made)
        BenchInterrupt.shared.register(directory: directory)
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            BenchInterrupt.shared.unregister(directory: directory)
        }
        let socketPath = directory + "/ipc.sock"
        // --gpu-sw: mpv refuses a software GL renderer (Xvfb's llvmpipe) without it.
        // --autofit-larger: at most 70 % of the screen, as Reel sizes its window, so that both
        // draw about as many pixels.
        var arguments = ["--no-config", "--vo=gpu", "--gpu-sw=yes", "--autofit-larger=70%x70%", "--ao=pulse",
                         "--input-ipc-server=\(socketPath)", "--msg-level=cplayer=v"]
        if paused { arguments.append("--pause") }
        let child = try ChildProcess(path: path, arguments: arguments + [setup.path])
        let first = try child.readLines(until: HostTime.now.adding(seconds: launchTimeout)) {
            $0.text.contains("first video frame after restart shown")
        }
        guard let first else { throw try gaveUp(child, "mpv", waitingFor: "did not log its first video frame") }
        let (firstFrameMs, cpu) = try measure(child, "mpv", from: first, seconds: window)

        var sample = Sample(firstFrameMs: firstFrameMs, cpuSeconds: cpu)
        do throws(ToolFailure) {
            let client = try MPVClient(socketPath: socketPath, timeout: 5)
            let deadline = HostTime.now.adding(seconds: 10)
            func count(_ property: String, _ id: Int) throws(ToolFailure) -> Int {
                try client.send(["get_property", property], requestID: id)
                let reply = try client.wait(deadline: deadline) { $0.requestID == id }
                guard reply.error == "success", let value = reply.object["data"] as? Int else {
                    throw ToolFailure(code: "peer_failed", message: "mpv get_property \(property): \(reply.error ?? "no data")")
                }
                return value
            }
            // Frames the video output dropped, and any the decoder dropped (0 with the default
            // --framedrop=vo), as one figure; frames shown late, apart.
            sample.framesDropped = try count("frame-drop-count", 1) + count("decoder-frame-drop-count", 2)
            sample.framesDelayed = try count("vo-delayed-frame-count", 3)
            try client.send(["quit"], requestID: 4)
        } catch {
            child.stop()
            throw ToolFailure(code: error.code, message: "\(error.message) (mpv's window run)")
        }
        let exit = try child.finish(timeout: quitTimeout)
        guard exit.succeeded else { throw ToolFailure(code: "peer_failed", message: "mpv \(exit.summary)") }
        let said = exit.stdout.map(\.text).joined(separator: "\n") + "\n" + exit.stderrTail
        guard said.contains("AO: [pulse]") else { throw PlayBench.noSoundServer("mpv did not open its pulse output", bench: "window") }
        return sample
    }

    // MARK: Shared

    /// From the first picture: launch → first picture in ms, and the CPU seconds the process
    /// spent over the next `seconds` (its output drained meanwhile).
    private func measure(_ child: ChildProcess, _ name: String, from first: ChildProcess.Line,
                         seconds: Double) throws -> (firstFrameMs: Double, cpu: Double) {
        guard let start = Self.cpuSeconds(of: child.pid) else { throw try gaveUp(child, name, waitingFor: "quit at its first picture") }
        _ = try child.readLines(until: first.at.adding(seconds: seconds)) { _ in false }
        guard child.isOutputOpen, let end = Self.cpuSeconds(of: child.pid) else {
            throw try gaveUp(child, name, waitingFor: "quit before the \(Int(seconds)) s were up")
        }
        return (first.at.seconds(since: child.started) * 1000, end - start)
    }

    /// The failure to report for a child that did not do what was waited for: how it ended,
    /// or a timeout (it is stopped) when it is still running.
    private func gaveUp(_ child: ChildProcess, _ name: String, waitingFor what: String) throws -> ToolFailure {
        let code = name == "reel" ? "internal_error" : "peer_failed"
        guard !child.isOutputOpen else {
            child.stop()
            return ToolFailure(code: "timeout", message: "\(name) \(what) within \(Int(launchTimeout)) s")
        }
        let exit = try child.finish(timeout: quitTimeout)
        return ToolFailure(code: code, message: "\(name) \(what): it \(exit.summary)")
    }

    /// User plus system CPU seconds of a running process, all its threads (fields 14 and 15 of
    /// /proc/PID/stat, in clock ticks); nil once it has exited.
    private static func cpuSeconds(of pid: pid_t) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After the command name (which may hold spaces): state, ppid, … utime is the 12th field.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, fields[0] != "Z", fields[0] != "X",
              let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func object(_ text: String) -> [String: Any]? {
        guard text.hasPrefix("{") else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    private static func event(_ text: String) -> String? { object(text)?["event"] as? String }
}
