import Foundation
import ReelCommandLine
import ReelEngine
#if canImport(Glibc)
import Glibc
#endif

/// `bench window`: the real `reel` app on each of its drawing paths (OpenGL; libswscale and
/// cairo) beside mpv as a user gets it (its own choice of output, named in the result), mpv
/// `--vo=x11` (libswscale and XShm) and mpv `--vo=gpu --gpu-sw=yes`, all drawing into windows
/// of the same size on the same X display and playing through PulseAudio. Per run and player:
/// launch → first picture on screen; CPU seconds over 20 s of playing (utime + stime from
/// /proc/PID/stat, sampled at the first picture and 20 s later, the same way for all) and the
/// frames each dropped; CPU seconds over 10 s launched paused. Reel reports through `--report`
/// (`video_output`, `first_frame_drawn`, and a summary at quit); mpv through its verbose
/// player log and its IPC socket.
/// Threading: runs on the calling thread; children are spawned one at a time.
struct WindowBench {
    let setup: BenchSetup
    let runs: Int

    static let playingSeconds = 20.0
    static let pausedSeconds = 10.0
    /// Reel quits by itself this long after the tool's last sample is due, so that its process
    /// is surely still there to be sampled (the tool sees the first picture slightly after Reel).
    private static let reelGrace = 1.0

    /// One player's figures from one run. Threading: a value type.
    struct Sample {
        var firstFrameMs: Double
        var cpuSeconds: Double
        var framesDropped = 0
        var framesDrawn = 0
        var framesDelayed = 0
        /// What drew: Reel's path and GL renderer, or mpv's video output.
        var drawnBy = ""
    }

    /// A player as launched in the bench: a Reel path or an mpv output. Threading: a value type.
    enum Player: CaseIterable {
        case reelSoftware, reelGL, mpvInstalled, mpvX11, mpvGPUSoftware

        var key: String {
            switch self {
            case .reelSoftware: "reel_software"
            case .reelGL: "reel_gl"
            case .mpvInstalled: "mpv"
            case .mpvX11: "mpv_x11"
            case .mpvGPUSoftware: "mpv_gpu_sw"
            }
        }

        var isReel: Bool { self == .reelSoftware || self == .reelGL }
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

        let players = Player.allCases.filter { $0.isReel || mpv != nil }
        var playing: [Player: [Sample]] = [:], paused: [Player: [Sample]] = [:]
        for i in 1...runs {
            var line = "bench window \(i)/\(runs):"
            for player in players {
                let path = player.isReel ? reel : mpv!
                let run = try launch(player, path: path, paused: false)
                let still = try launch(player, path: path, paused: true)
                playing[player, default: []].append(run)
                paused[player, default: []].append(still)
                line += " \(player.key) (\(run.drawnBy)) first frame \(Output.round(run.firstFrameMs, 1)) ms, "
                    + "cpu \(Output.round(run.cpuSeconds, 2)) s, dropped \(run.framesDropped), "
                    + "paused cpu \(Output.round(still.cpuSeconds, 2)) s;"
            }
            Output.note(line)
        }

        var result: [String: Any] = ["bench": "window", "runs": runs,
                                     "playing_s": Self.playingSeconds, "paused_s": Self.pausedSeconds]
        if !setup.mpvOptions.isEmpty { result["mpv_options"] = setup.mpvOptions }
        var figures: [Player: [String: Double]] = [:]
        for player in players {
            let runs = playing[player] ?? [], stills = paused[player] ?? []
            func median(_ samples: [Sample], _ value: (Sample) -> Double) -> Double { Percentiles.median(samples.map(value)) }
            let values: [String: Double] = [
                "first_frame_ms": Output.round(median(runs) { $0.firstFrameMs }, 1),
                "cpu_s": Output.round(median(runs) { $0.cpuSeconds }, 2),
                "frames_dropped": median(runs) { Double($0.framesDropped) },
                "paused_cpu_s": Output.round(median(stills) { $0.cpuSeconds }, 2),
            ]
            figures[player] = values
            var entry: [String: Any] = values
            entry["drawn_by"] = runs.last?.drawnBy ?? ""
            if player.isReel { entry["frames_drawn"] = median(runs) { Double($0.framesDrawn) } }
            else { entry["frames_delayed"] = median(runs) { Double($0.framesDelayed) } }
            result[player.key] = entry
        }
        // Each Reel path against each mpv output, figure by figure.
        for reelPath in players where reelPath.isReel {
            for peer in players where !peer.isReel {
                guard let mine = figures[reelPath], let theirs = figures[peer] else { continue }
                var ratios: [String: Any] = [:]
                for name in ["first_frame_ms", "cpu_s", "frames_dropped", "paused_cpu_s"] {
                    ratios[name] = benchRatio(mine[name] ?? 0, theirs[name] ?? 0) as Any
                }
                result["ratio_\(reelPath.key)_to_\(peer.key)"] = ratios
            }
        }
        return result
    }

    private func launch(_ player: Player, path: String, paused: Bool) throws -> Sample {
        switch player {
        case .reelSoftware: try runReel(path, output: "software", paused: paused)
        case .reelGL: try runReel(path, output: "gl", paused: paused)
        case .mpvInstalled: try runMPV(path, output: [], paused: paused)
        case .mpvX11: try runMPV(path, output: ["--vo=x11"], paused: paused)
        // --gpu-sw: mpv refuses a software GL renderer (Xvfb's llvmpipe) without it.
        case .mpvGPUSoftware: try runMPV(path, output: ["--vo=gpu", "--gpu-sw=yes"], paused: paused)
        }
    }

    // MARK: Reel

    /// `REEL_VIDEO_OUTPUT=PATH reel --report --exit-after S [--paused] FILE` (through env(1),
    /// which execs it: the pid sampled is Reel's): its `first_frame_drawn` line (stamped as read)
    /// starts the window; its summary at quit gives the frames drawn and dropped.
    /// Each run has a state directory of its own, empty: the file opens at its start, as it does
    /// for mpv (`--no-config`: no watch-later). With the person's own, each run would resume where
    /// the one before quit, 20 s in, and pay for an exact landing there that mpv never makes.
    private func runReel(_ path: String, output: String, paused: Bool) throws -> Sample {
        let window = paused ? Self.pausedSeconds : Self.playingSeconds
        let reel = try DesktopRun.Reel(app: path, file: setup.path, output: output, paused: paused,
                                       exitAfter: window + Self.reelGrace)
        defer { reel.removeState() }
        let child = reel.child
        let first = try reel.firstPicture()
        let (firstFrameMs, cpu) = try measure(child, "reel", from: first, seconds: window)

        let exit = try child.finish(timeout: DesktopRun.quitTimeout)
        let summary = exit.stdout.compactMap { DesktopRun.object($0.text) }.last { $0["event"] as? String == "summary" }
        guard exit.succeeded else {
            let when = summary == nil ? "" : " after printing its summary"
            throw ToolFailure(code: "internal_error", message: "reel\(when) \(exit.summary)")
        }
        guard let summary else { throw ToolFailure(code: "internal_error", message: "reel --report printed no summary line") }
        let sound = summary["audio_output"] as? String ?? "none"
        guard sound == "pulse" else { throw PlayBench.noSoundServer("Reel played through '\(sound)'", bench: "window") }
        var sample = Sample(firstFrameMs: firstFrameMs, cpuSeconds: cpu)
        sample.framesDropped = summary["frames_dropped"] as? Int ?? 0
        sample.framesDrawn = summary["frames_drawn"] as? Int ?? 0
        let drawing = exit.stdout.compactMap { DesktopRun.object($0.text) }.first { $0["event"] as? String == "video_output" }
        let drewOn = drawing?["path"] as? String ?? "?"
        guard drewOn == output else {
            throw ToolFailure(code: "internal_error", message: "reel drew on '\(drewOn)', not '\(output)': \(drawing?["reason"] ?? "")")
        }
        sample.drawnBy = "\(drewOn), GL \(drawing?["gl_renderer"] as? String ?? "?")"
        return sample
    }

    // MARK: mpv

    /// `mpv [OUTPUT] --ao=pulse` with its IPC socket; "first video frame after restart shown"
    /// (its verbose player log) starts the window; dropped and delayed frames are read over IPC
    /// at its end, then mpv is told to quit. The output it drew with is read from its log.
    private func runMPV(_ path: String, output: [String], paused: Bool) throws -> Sample {
        let window = paused ? Self.pausedSeconds : Self.playingSeconds
        let mpv = try DesktopRun.MPV(path: path, file: setup.path, output: output + setup.mpvOptions, paused: paused)
        defer { mpv.removeDirectory() }
        let (child, socketPath) = (mpv.child, mpv.socketPath)
        let first = try mpv.firstPicture()
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
        let exit = try child.finish(timeout: DesktopRun.quitTimeout)
        guard exit.succeeded else { throw ToolFailure(code: "peer_failed", message: "mpv \(exit.summary)") }
        let said = exit.stdout.map(\.text).joined(separator: "\n") + "\n" + exit.stderrTail
        guard said.contains("AO: [pulse]") else { throw PlayBench.noSoundServer("mpv did not open its pulse output", bench: "window") }
        // "VO: [x11] 1920x1080 yuv420p": the output mpv chose or was given.
        sample.drawnBy = said.split(separator: "\n").first { $0.contains("VO: [") }
            .flatMap { line in line.range(of: "VO: [").map { String(line[$0.upperBound...].prefix { $0 != "]" }) } } ?? "?"
        return sample
    }

    // MARK: Shared

    /// From the first picture: launch → first picture in ms, and the CPU seconds the process
    /// spent over the next `seconds` (its output drained meanwhile).
    private func measure(_ child: ChildProcess, _ name: String, from first: ChildProcess.Line,
                         seconds: Double) throws -> (firstFrameMs: Double, cpu: Double) {
        guard let start = Self.cpuSeconds(of: child.pid) else {
            throw try DesktopRun.gaveUp(child, name, waitingFor: "quit at its first picture")
        }
        _ = try child.readLines(until: first.at.adding(seconds: seconds)) { _ in false }
        guard child.isOutputOpen, let end = Self.cpuSeconds(of: child.pid) else {
            throw try DesktopRun.gaveUp(child, name, waitingFor: "quit before the \(Int(seconds)) s were up")
        }
        return (first.at.seconds(since: child.started) * 1000, end - start)
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
}
