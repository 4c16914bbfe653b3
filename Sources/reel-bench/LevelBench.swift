import Foundation
import ReelCommandLine
import ReelEngine

/// `bench level`: what loudness levelling costs. 20 s of real-time play through PulseAudio,
/// `reel-tool play` with and without `--level-loudness`, in alternation; CPU seconds (user +
/// system, from wait4's rusage) of each, and the ratio of the medians. The issue's target:
/// levelling on costs at most 1.05× the CPU of the same play without it.
/// Threading: runs on the calling thread; children are spawned one at a time.
struct LevelBench {
    let setup: BenchSetup
    let runs: Int
    static let seconds = 20.0

    func run() throws -> [String: Any] {
        let tool = try BenchSetup.sibling("reel-tool", for: "level")
        try PlayBench.requireSoundServer(for: "level")
        var plain: [Double] = []
        var levelled: [Double] = []
        for i in 1...runs {
            // Alternating, each pair in the other order, so a machine getting busier or quieter
            // weighs on both sides alike.
            for levelling in i % 2 == 1 ? [false, true] : [true, false] {
                let cpu = try play(tool, levelling: levelling)
                if levelling { levelled.append(cpu) } else { plain.append(cpu) }
            }
            Output.note("bench level \(i)/\(runs): cpu without \(Output.round(plain.last!, 2)) s, "
                        + "with levelling \(Output.round(levelled.last!, 2)) s")
        }
        let off = Percentiles.median(plain), on = Percentiles.median(levelled)
        return [
            "bench": "level", "runs": runs, "seconds": Self.seconds,
            "cpu_s": Output.round(on, 2), "cpu_s_without": Output.round(off, 2),
            "cpu_s_runs": levelled.map { Output.round($0, 2) }, "cpu_s_without_runs": plain.map { Output.round($0, 2) },
            "ratio_cpu": benchRatio(on, off) as Any,
        ]
    }

    /// One play of `seconds`; its CPU seconds. A play that did not reach the sound server, or
    /// whose levelling was not switched on when asked, is a failure, not a figure.
    private func play(_ tool: String, levelling: Bool) throws -> Double {
        var arguments = ["play", setup.path, "--audio", "pulse", "--json", "--exit-after", String(Self.seconds)]
        if levelling { arguments.append("--level-loudness") }
        let exit = try ChildProcess(path: tool, arguments: arguments).finish(timeout: Self.seconds * 3 + 60)
        let objects = exit.stdout.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.text.utf8))) as? [String: Any]
        }
        guard exit.succeeded, let summary = objects.last(where: { $0["event"] as? String == "summary" }) else {
            throw ToolFailure(code: "internal_error", message: "reel-tool play \(exit.summary)")
        }
        guard summary["audio_output"] as? String == "pulse" else {
            throw PlayBench.noSoundServer("Reel played through '\(summary["audio_output"] ?? "?")'", bench: "level")
        }
        let switched = objects.contains { $0["event"] as? String == "levelling" && $0["on"] as? Bool == true }
        guard switched == levelling else {
            throw ToolFailure(code: "internal_error", message: "reel-tool play did not report levelling \(levelling ? "on" : "off")")
        }
        return exit.cpuSeconds
    }
}
