import Foundation
import ReelCommandLine
import ReelEngine

/// `bench queue`: the gap between two items of a queue, heard. The file's first seconds are cut
/// (stream copy) into a clip, and the clip is queued twice. Reel (`reel-tool play CLIP CLIP`)
/// and then mpv (`mpv CLIP CLIP`) play it into a null sink of the bench's own, whose monitor
/// parec records. The figures are the longest quiet stretch between the first and the last sound
/// (the seam, or the clip's own silence), and how long the sound lasts against twice the clip.
/// Threading: runs on the calling thread; the players and recorders are child processes.
struct QueueBench {
    let setup: BenchSetup
    /// Seconds of the file in each item.
    let clipSeconds: Double

    /// Quiet is below this level (16-bit samples): a tone at any audible level is above it
    /// except for a sample or two at each zero crossing.
    static let quietLevel: Int16 = 200

    func run() throws -> [String: Any] {
        try PlayBench.requireSoundServer(for: "queue")
        guard let pactl = Peer.find("pactl"), let parec = Peer.find("parec"), let pacat = Peer.find("pacat"),
              let ffmpeg = Peer.find("ffmpeg") else {
            throw ToolFailure(code: "missing_tool", message: "bench queue needs pactl, parec and pacat (pulseaudio-utils) and ffmpeg")
        }
        guard setup.info.selectedAudioStream != nil else {
            throw ToolFailure(code: "usage", message: "bench queue needs media with sound: \(setup.path)")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-queue-\(getpid())")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let clip = work.appendingPathComponent("clip.\((setup.path as NSString).pathExtension)").path
        let cut = try ChildProcess(path: ffmpeg, arguments: ["-hide_banner", "-loglevel", "error", "-y", "-nostdin",
                                                             "-i", setup.path, "-t", String(clipSeconds), "-c", "copy", clip])
        let cutExit = try cut.finish(timeout: 60)
        guard cutExit.succeeded else { throw ToolFailure(code: "internal_error", message: "ffmpeg could not cut the clip: \(cutExit.summary)") }
        let clipLength = try MediaInspector.inspect(try MediaSource(parsing: clip)).duration ?? clipSeconds

        let sink = try PrivateSink(pactl: pactl, pacat: pacat, name: "reel_bench_queue_\(getpid())")
        defer { sink.unload() }
        Output.note("bench queue: two \(Output.round(clipLength, 3)) s clips of \(setup.path) back to back, into \(sink.name)")

        let tool = try BenchSetup.sibling("reel-tool", for: "queue")
        let reel = try sink.record(with: parec, into: work.appendingPathComponent("reel.raw").path) {
            let child = try ChildProcess(path: tool, arguments: ["play", clip, clip, "--audio", "pulse", "--json"])
            let exit = try child.finish(timeout: clipLength * 2 + 60)
            guard exit.succeeded else { throw ToolFailure(code: "internal_error", message: "reel-tool play \(exit.summary)") }
            let said = exit.stdout.map(\.text).joined(separator: "\n")
            guard said.contains("\"audio_output\":\"pulse\"") else { throw PlayBench.noSoundServer("Reel did not play through pulse", bench: "queue") }
        }
        var result: [String: Any] = [
            "bench": "queue", "clip_s": Output.round(clipLength, 3),
            "gap_ms": Output.round(reel.longestQuietMs, 2), "sound_s": Output.round(reel.soundSeconds, 3),
        ]
        Output.note("bench queue: Reel \(reel)")
        if setup.compare {
            let mpvPath = try Peer.mpv.locate()
            let mpv = try sink.record(with: parec, into: work.appendingPathComponent("mpv.raw").path) {
                let child = try ChildProcess(path: mpvPath, arguments: ["--no-config", "--vo=null", "--ao=pulse", clip, clip])
                let exit = try child.finish(timeout: clipLength * 2 + 60)
                guard exit.succeeded else { throw ToolFailure(code: "peer_failed", message: "mpv \(exit.summary)") }
            }
            Output.note("bench queue: mpv \(mpv)")
            result["mpv_gap_ms"] = Output.round(mpv.longestQuietMs, 2)
            result["mpv_sound_s"] = Output.round(mpv.soundSeconds, 3)
        }
        return result
    }

    /// What a recording holds: how long from the first sound to the last, and its longest quiet.
    struct Heard: CustomStringConvertible {
        let soundSeconds: Double
        let longestQuietMs: Double
        let quietAt: Double

        init(_ samples: [Int16]) {
            let loud = { (s: Int16) in s > QueueBench.quietLevel || s < -QueueBench.quietLevel }
            guard let first = samples.firstIndex(where: loud), let last = samples.lastIndex(where: loud) else {
                soundSeconds = 0; longestQuietMs = 0; quietAt = 0
                return
            }
            var longest = 0, run = 0, at = first
            for i in first...last {
                if loud(samples[i]) { run = 0; continue }
                run += 1
                if run > longest { longest = run; at = i - run + 1 }
            }
            soundSeconds = Double(last - first) / 48000
            longestQuietMs = Double(longest) / 48
            quietAt = Double(at - first) / 48000
        }

        var description: String {
            "\(Output.round(soundSeconds, 3)) s of sound, longest quiet \(Output.round(longestQuietMs, 2)) ms at \(Output.round(quietAt, 3)) s"
        }
    }

    /// A null sink loaded for the bench, with a silent low-latency client keeping it rendering
    /// in small steps as a sound card does.
    /// Threading: used on the bench's thread only.
    final class PrivateSink {
        let name: String
        private let pactl: String
        private let module: String
        private let keepAlive: ChildProcess

        init(pactl: String, pacat: String, name: String) throws {
            self.name = name
            self.pactl = pactl
            let load = try ChildProcess(path: pactl, arguments: ["load-module", "module-null-sink", "sink_name=\(name)", "rate=48000"])
            let exit = try load.finish(timeout: 10)
            guard exit.succeeded, let id = exit.stdout.first?.text.trimmingCharacters(in: .whitespaces), !id.isEmpty else {
                throw ToolFailure(code: "no_sound_server", message: "cannot load a null sink: \(exit.summary)")
            }
            module = id
            keepAlive = try ChildProcess(path: pacat, arguments: ["--playback", "-d", name, "--latency-msec=10", "--raw", "/dev/zero"],
                                         stdout: .discard, stderr: .discard)
            settle()
        }

        /// A new null sink renders up to 2 s of silence ahead while no stream asks for less, and
        /// what is played next waits behind it. Suspended and resumed, the sink lets go of it and
        /// renders at the keep-alive's latency: this waits (up to 3 s, in which it would drain by
        /// itself) until less than 50 ms is ahead.
        private func settle() {
            for suspended in ["1", "0"] {
                if let child = try? ChildProcess(path: pactl, arguments: ["suspend-sink", name, suspended]) { _ = try? child.finish(timeout: 10) }
            }
            let deadline = HostTime.now.adding(seconds: 3)
            while deadline.seconds(since: .now) > 0 {
                if let ahead = latency(), ahead < 50_000 { return }
                usleep(20_000)
            }
        }

        /// The sink's "Latency: N usec" in `pactl list sinks`: what it has rendered ahead.
        private func latency() -> Int? {
            guard let child = try? ChildProcess(path: pactl, arguments: ["list", "sinks"]),
                  let listing = try? child.finish(timeout: 10) else { return nil }
            var ours = false
            for line in listing.stdout.map({ $0.text.trimmingCharacters(in: .whitespaces) }) {
                if line.hasPrefix("Sink #") { ours = false }
                if line == "Name: \(name)" { ours = true }
                if ours, line.hasPrefix("Latency: ") { return Int(line.split(separator: " ")[1]) }
            }
            return nil
        }

        /// Records the monitor (mono, 16-bit, 48 kHz) while `play` runs, with the players'
        /// default sink pointed here (PULSE_SINK, which libpulse reads).
        func record(with parec: String, into path: String, _ play: () throws -> Void) throws -> Heard {
            let recorder = try ChildProcess(path: parec, arguments: ["-d", "\(name).monitor", "--format=s16le", "--rate=48000",
                                                                     "--channels=1", "--latency-msec=10"],
                                            stdout: .file(path), stderr: .discard)
            // The player starts once the recorder is taking the monitor's samples: the sink
            // renders silence all the while, so they come as soon as it is connected.
            Self.waitForSamples(in: path, timeout: 5)
            setenv("PULSE_SINK", name, 1)
            defer { unsetenv("PULSE_SINK") }
            do { try play() } catch { recorder.stop(); throw error }
            usleep(300_000)
            kill(recorder.pid, SIGINT)
            // parec writes what it holds and exits on SIGINT; one that lingers is stopped.
            _ = try? recorder.finish(timeout: 1)
            recorder.stop()
            let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
            return Heard(data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) })
        }

        /// Waits until the recording at `path` holds a sample, or `timeout` seconds pass.
        private static func waitForSamples(in path: String, timeout: Double) {
            let deadline = HostTime.now.adding(seconds: timeout)
            while deadline.seconds(since: .now) > 0 {
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                if size >= 2 { return }
                usleep(5_000)
            }
        }

        func unload() {
            keepAlive.stop()
            if let child = try? ChildProcess(path: pactl, arguments: ["unload-module", module]) { _ = try? child.finish(timeout: 10) }
        }
    }
}
