import Foundation
import ReelCommandLine
import ReelEngine

/// `bench wakeups`: how often the `reel` app wakes up, paused and playing, beside mpv as a user
/// gets it (`--pause` for paused), on the same file on the same X display and sound server.
/// Each player runs until its first picture is on screen, settles for a second (the queues
/// filling after the landing), then the voluntary and involuntary context switches of all its
/// threads (/proc/PID/task/*/status) are counted over the window: every time the process gave
/// up the processor or had it taken, which is what wakes a laptop's cores.
/// Threading: runs on the calling thread; children are spawned one at a time.
struct WakeupsBench {
    let setup: BenchSetup
    let seconds: Double

    static let settleSeconds = 1.0
    /// Reel quits by itself this long after its last sample is due.
    private static let reelGrace = 2.0

    /// One player's count over one window. Threading: a value type.
    struct Sample {
        var perSecond: Double
        /// The switches the process asked for (it slept): the wake-ups its own design causes; the
        /// rest were the processor taken away, which a busy machine adds.
        var voluntaryPerSecond: Double
        /// Per thread name (threads of one name added up), per second.
        var threads: [String: Double]
    }

    func run() throws -> [String: Any] {
        guard let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty else {
            throw ToolFailure(code: "no_display", message: """
                bench wakeups runs the reel app in a window and needs an X display (DISPLAY is unset). \
                Run it under xvfb-run -s "-screen 0 1920x1080x24", or start Xvfb :77 -screen 0 1920x1080x24 \
                and export DISPLAY=:77 (see BENCHMARKS.md)
                """)
        }
        let needed = Self.settleSeconds + seconds + Self.reelGrace + 1
        guard let duration = setup.duration, duration > needed else {
            throw ToolFailure(code: "usage", message: "bench wakeups plays for \(Int(seconds)) s: it needs media longer "
                + "than \(Int(needed.rounded(.up))) s with a known duration")
        }
        let reel = try BenchSetup.sibling("reel", for: "wakeups")
        let mpv = setup.compare ? try Peer.mpv.locate() : nil
        try PlayBench.requireSoundServer(for: "wakeups")
        Output.note("bench wakeups: reel \(reel) on DISPLAY=\(display), \(seconds) s each")

        var result: [String: Any] = ["bench": "wakeups", "seconds": seconds, "settle_s": Self.settleSeconds]
        var figures: [String: [String: Double]] = [:]
        for (name, path) in [("reel", reel)] + (mpv.map { [("mpv", $0)] } ?? []) {
            var entry: [String: Any] = [:]
            var values: [String: Double] = [:]
            for paused in [true, false] {
                let sample = name == "reel" ? try runReel(path, paused: paused) : try runMPV(path, paused: paused)
                let key = paused ? "paused" : "playing"
                values["\(key)_per_s"] = Output.round(sample.perSecond, 1)
                entry["\(key)_per_s"] = Output.round(sample.perSecond, 1)
                entry["\(key)_voluntary_per_s"] = Output.round(sample.voluntaryPerSecond, 1)
                entry["\(key)_threads"] = Self.busiest(sample.threads)
                Output.note("bench wakeups: \(name) \(key) \(Output.round(sample.perSecond, 1))/s")
            }
            figures[name] = values
            result[name] = entry
        }
        if let mine = figures["reel"], let theirs = figures["mpv"] {
            for key in ["paused", "playing"] {
                result["ratio_\(key)"] = benchRatio(mine["\(key)_per_s"] ?? 0, theirs["\(key)_per_s"] ?? 0) as Any
            }
        }
        return result
    }

    private func runReel(_ path: String, paused: Bool) throws -> Sample {
        let reel = try DesktopRun.Reel(app: path, file: setup.path, output: nil, paused: paused,
                                       exitAfter: Self.settleSeconds + seconds + Self.reelGrace)
        defer { reel.removeState() }
        let sample = try count(reel.child, "reel", from: try reel.firstPicture())
        let exit = try reel.child.finish(timeout: DesktopRun.quitTimeout)
        guard exit.succeeded else { throw ToolFailure(code: "internal_error", message: "reel \(exit.summary)") }
        let summary = exit.stdout.compactMap { DesktopRun.object($0.text) }.last { $0["event"] as? String == "summary" }
        let sound = summary?["audio_output"] as? String ?? "none"
        guard sound == "pulse" else { throw PlayBench.noSoundServer("Reel played through '\(sound)'", bench: "wakeups") }
        return sample
    }

    private func runMPV(_ path: String, paused: Bool) throws -> Sample {
        let mpv = try DesktopRun.MPV(path: path, file: setup.path, output: [], paused: paused)
        defer { mpv.removeDirectory() }
        let sample = try count(mpv.child, "mpv", from: try mpv.firstPicture())
        do throws(ToolFailure) {
            try MPVClient(socketPath: mpv.socketPath, timeout: 5).send(["quit"], requestID: 1)
        } catch {
            mpv.child.stop()
            throw ToolFailure(code: error.code, message: "\(error.message) (mpv's wakeups run)")
        }
        let exit = try mpv.child.finish(timeout: DesktopRun.quitTimeout)
        let said = exit.stdout.map(\.text).joined(separator: "\n") + "\n" + exit.stderrTail
        guard said.contains("AO: [pulse]") else { throw PlayBench.noSoundServer("mpv did not open its pulse output", bench: "wakeups") }
        return sample
    }

    /// The context switches over the window after the settling second (its output drained meanwhile).
    private func count(_ child: ChildProcess, _ name: String, from first: ChildProcess.Line) throws -> Sample {
        _ = try child.readLines(until: first.at.adding(seconds: Self.settleSeconds)) { _ in false }
        let startedAt = HostTime.now
        guard let start = ThreadSwitches.sample(child.pid) else {
            throw try DesktopRun.gaveUp(child, name, waitingFor: "quit before it settled")
        }
        _ = try child.readLines(until: startedAt.adding(seconds: seconds)) { _ in false }
        let endedAt = HostTime.now
        guard child.isOutputOpen, let end = ThreadSwitches.sample(child.pid) else {
            throw try DesktopRun.gaveUp(child, name, waitingFor: "quit before the \(Int(seconds)) s were up")
        }
        let elapsed = endedAt.seconds(since: startedAt)
        var threads: [String: Double] = [:]
        var total = 0, voluntary = 0
        for (tid, thread) in end {
            let switches = thread.switches - (start[tid]?.switches ?? 0)
            total += switches
            voluntary += thread.voluntary - (start[tid]?.voluntary ?? 0)
            threads[thread.name, default: 0] += Double(switches) / elapsed
        }
        return Sample(perSecond: Double(total) / elapsed, voluntaryPerSecond: Double(voluntary) / elapsed, threads: threads)
    }

    /// The threads that woke most, by name, per second (the rest left out of the line).
    private static func busiest(_ threads: [String: Double]) -> [String: Double] {
        let top = threads.filter { $0.value >= 0.05 }.sorted { $0.value > $1.value }.prefix(8)
        return Dictionary(uniqueKeysWithValues: top.map { ($0.key, Output.round($0.value, 1)) })
    }
}

/// Context switches of every thread of a process, from /proc/PID/task/TID/status.
/// Threading: stateless.
enum ThreadSwitches {
    /// Per thread id: its name, voluntary + involuntary switches so far, and the voluntary
    /// ones; nil once the process is gone. Threads that ended before the sample are not in it.
    static func sample(_ pid: pid_t) -> [Int: (name: String, switches: Int, voluntary: Int)]? {
        let tasks = "/proc/\(pid)/task"
        guard let ids = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        var result: [Int: (name: String, switches: Int, voluntary: Int)] = [:]
        for id in ids {
            guard let tid = Int(id),
                  let status = try? String(contentsOfFile: "\(tasks)/\(id)/status", encoding: .utf8) else { continue }
            var name = "?"
            var voluntary = 0, involuntary = 0
            for line in status.split(separator: "\n") {
                let value = { Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) ?? 0 }
                if line.hasPrefix("Name:") {
                    name = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
                } else if line.hasPrefix("voluntary_ctxt_switches:") {
                    voluntary = value()
                } else if line.hasPrefix("nonvoluntary_ctxt_switches:") {
                    involuntary = value()
                }
            }
            result[tid] = (name, voluntary + involuntary, voluntary)
        }
        if let state = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
           let close = state.lastIndex(of: ")"), state[state.index(after: close)...].hasPrefix(" Z") { return nil }
        return result
    }
}
