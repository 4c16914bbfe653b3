import Foundation
import ReelCommandLine
import ReelEngine

/// `bench play`: real-time play of the whole file through PulseAudio: CPU seconds and peak RSS
/// (from wait4's rusage) and A/V drift, beside `mpv --vo=null --ao=pulse`. Both sides must
/// reach a real sound server; a silent fallback would not be the same work.
/// Threading: runs on the calling thread; children are spawned one at a time.
struct PlayBench {
    let setup: BenchSetup
    let runs: Int

    private struct ReelRun {
        let exit: ChildProcess.Exit
        let driftP95: Double?
        let framesDropped: Int
        let framesShown: Int
        let audioOutput: String
    }

    func run() throws -> [String: Any] {
        let tool = try BenchSetup.sibling("reel-tool", for: "play")
        let mpv = setup.compare ? try Peer.mpv.locate() : nil
        try Self.requireSoundServer()
        let timeout = (setup.duration ?? 600) * 2 + 60

        var reelRuns: [ReelRun] = []
        var mpvRuns: [ChildProcess.Exit] = []
        for i in 1...runs {
            let reel = try runReel(tool, timeout: timeout)
            reelRuns.append(reel)
            var line = "bench play \(i)/\(runs): reel cpu \(Output.round(reel.exit.cpuSeconds, 2)) s, "
                + "rss \(Output.round(reel.exit.peakRSSMegabytes, 1)) MiB, drift p95 \(reel.driftP95.map { "\($0)" } ?? "n/a") ms, "
                + "dropped \(reel.framesDropped)"
            if let mpv {
                let peer = try runMPV(mpv, timeout: timeout)
                mpvRuns.append(peer)
                line += "; mpv cpu \(Output.round(peer.cpuSeconds, 2)) s, rss \(Output.round(peer.peakRSSMegabytes, 1)) MiB"
            }
            Output.note(line)
        }

        let cpu = Percentiles.median(reelRuns.map(\.exit.cpuSeconds))
        let rss = Percentiles.median(reelRuns.map(\.exit.peakRSSMegabytes))
        let drifts = reelRuns.compactMap(\.driftP95)
        let drift: Double? = drifts.isEmpty ? nil : Output.round(Percentiles.median(drifts), 2)
        var result: [String: Any] = [
            "bench": "play", "runs": runs,
            "cpu_s": Output.round(cpu, 2),
            "peak_rss_mb": Output.round(rss, 1),
            "drift_ms_p95": drift as Any,
            "frames_dropped": reelRuns.map(\.framesDropped).max()!,
            "frames_shown": reelRuns.map(\.framesShown).min()!,
            "audio_output": reelRuns[0].audioOutput,
            "wall_s": Output.round(Percentiles.median(reelRuns.map(\.exit.wallSeconds)), 2),
        ]
        if !mpvRuns.isEmpty {
            let mpvCPU = Percentiles.median(mpvRuns.map(\.cpuSeconds))
            let mpvRSS = Percentiles.median(mpvRuns.map(\.peakRSSMegabytes))
            result["mpv_cpu_s"] = Output.round(mpvCPU, 2)
            result["mpv_peak_rss_mb"] = Output.round(mpvRSS, 1)
            result["mpv_wall_s"] = Output.round(Percentiles.median(mpvRuns.map(\.wallSeconds)), 2)
            result["ratio_cpu"] = benchRatio(cpu, mpvCPU) as Any
            result["ratio_rss"] = benchRatio(rss, mpvRSS) as Any
        }
        return result
    }

    /// `reel-tool play --audio pulse --json`, judged by its final summary line.
    private func runReel(_ tool: String, timeout: Double) throws -> ReelRun {
        let child = try ChildProcess(path: tool, arguments: ["play", setup.path, "--audio", "pulse", "--json"])
        let exit = try child.finish(timeout: timeout)
        let objects = exit.stdout.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.text.utf8))) as? [String: Any]
        }
        if let error = objects.last?["error"] as? [String: Any] {
            throw ToolFailure(code: error["code"] as? String ?? "internal_error",
                              message: "reel-tool play failed: \(error["message"] as? String ?? "")")
        }
        let summary = objects.last(where: { $0["event"] as? String == "summary" })
        guard exit.succeeded else {
            // A crash is a failure even after the summary: the figures may be real, the crash is too.
            let when = summary == nil ? "" : " after printing its summary"
            throw ToolFailure(code: "internal_error", message: "reel-tool play\(when) \(exit.summary)")
        }
        guard let summary else {
            throw ToolFailure(code: "internal_error", message: "reel-tool play printed no summary line")
        }
        let output = summary["audio_output"] as? String ?? "none"
        guard output == "pulse" else { throw Self.noSoundServer("Reel played through '\(output)'") }
        guard summary["outcome"] as? String == "ended" else {
            throw ToolFailure(code: "internal_error", message: "reel-tool play stopped early: \(summary["outcome"] ?? "?")")
        }
        return ReelRun(exit: exit,
                       driftP95: summary["drift_ms_p95"] as? Double,
                       framesDropped: summary["frames_dropped"] as? Int ?? 0,
                       framesShown: summary["frames_shown"] as? Int ?? 0,
                       audioOutput: output)
    }

    /// mpv falls back to no sound when PulseAudio fails; its "AO: [pulse]" line proves it did not.
    private func runMPV(_ path: String, timeout: Double) throws -> ChildProcess.Exit {
        let child = try ChildProcess(path: path, arguments: ["--no-config", "--vo=null", "--ao=pulse", setup.path])
        let exit = try child.finish(timeout: timeout)
        guard exit.succeeded else { throw ToolFailure(code: "peer_failed", message: "mpv \(exit.summary)") }
        let said = exit.stdout.map(\.text).joined(separator: "\n") + "\n" + exit.stderrTail
        guard said.contains("AO: [pulse]") else { throw Self.noSoundServer("mpv did not open its pulse output") }
        return exit
    }

    /// Asks the server itself when pactl is there; otherwise each player's report decides.
    static func requireSoundServer(for bench: String = "play") throws {
        guard let pactl = Peer.find("pactl") else { return }
        let child = try ChildProcess(path: pactl, arguments: ["info"])
        let exit = try child.finish(timeout: 10)
        guard exit.succeeded else { throw noSoundServer("pactl info: \(exit.summary)", bench: bench) }
    }

    static func noSoundServer(_ detail: String, bench: String = "play") -> ToolFailure {
        ToolFailure(code: "no_sound_server", message: """
            bench \(bench) needs a PulseAudio (or PipeWire-Pulse) server for both players (\(detail)). \
            Start one, e.g.: mkdir -p /tmp/pa-bench && XDG_RUNTIME_DIR=/tmp/pa-bench pulseaudio -n --daemonize=no \
            --exit-idle-time=-1 --load="module-null-sink sink_name=bench rate=48000" \
            --load="module-native-protocol-unix auth-anonymous=1 socket=/tmp/pa-bench/native" & \
            then export PULSE_SERVER=unix:/tmp/pa-bench/native (see BENCHMARKS.md)
            """)
    }
}
