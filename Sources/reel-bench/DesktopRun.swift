import Foundation
import ReelCommandLine
import ReelEngine
#if canImport(Glibc)
import Glibc
#endif

/// The desktop players as the benches that open windows run them (`window`, `wakeups`): the
/// `reel` app with `--report`, in a state directory of its own, and mpv with its IPC socket and
/// verbose player log, each until its first picture is on screen.
/// Threading: the calling thread; each child belongs to it.
enum DesktopRun {
    static let launchTimeout = 60.0
    static let quitTimeout = 30.0

    /// `[REEL_VIDEO_OUTPUT=PATH] reel --report --exit-after S [--paused] FILE` (through env(1),
    /// which execs it: the pid sampled is Reel's). Each run has an empty state directory of its
    /// own: the file opens at its start, as it does for mpv (`--no-config`: no watch-later). With
    /// the person's own, each run would resume where the one before quit, and pay for an exact
    /// landing there that mpv never makes.
    /// Threading: owned by the thread that launched it.
    struct Reel {
        let child: ChildProcess
        private let state: String

        /// `output` nil: the drawing path the app picks itself, as a person gets it.
        init(app: String, file: String, output: String?, paused: Bool, exitAfter: Double) throws {
            state = try DesktopRun.temporaryDirectory("/tmp/reel-bench-state-XXXXXX")
            var arguments = ["XDG_STATE_HOME=\(state)", app, "--report", "--exit-after", "\(exitAfter)"]
            if let output { arguments.insert("REEL_VIDEO_OUTPUT=\(output)", at: 0) }
            if paused { arguments.append("--paused") }
            do {
                child = try ChildProcess(path: "/usr/bin/env", arguments: arguments + [file])
            } catch {
                DesktopRun.remove(state)
                throw error
            }
        }

        /// Its `first_frame_drawn` line, stamped as read.
        func firstPicture() throws -> ChildProcess.Line {
            let first = try child.readLines(until: HostTime.now.adding(seconds: DesktopRun.launchTimeout)) {
                DesktopRun.event($0.text) == "first_frame_drawn"
            }
            guard let first else { throw try DesktopRun.gaveUp(child, "reel", waitingFor: "drew no picture") }
            return first
        }

        func removeState() { DesktopRun.remove(state) }
    }

    /// `mpv --no-config [OUTPUT] --ao=pulse` with its IPC socket, at most 70 % of the screen
    /// (`--autofit-larger`) as Reel sizes its window, so that both draw about as many pixels.
    /// Threading: owned by the thread that launched it.
    struct MPV {
        let child: ChildProcess
        let socketPath: String
        private let directory: String

        init(path: String, file: String, output: [String], paused: Bool) throws {
            directory = try DesktopRun.temporaryDirectory("/tmp/reel-bench-mpv-XXXXXX")
            socketPath = directory + "/ipc.sock"
            var arguments = ["--no-config"] + output + ["--autofit-larger=70%x70%", "--ao=pulse",
                             "--input-ipc-server=\(socketPath)", "--msg-level=cplayer=v"]
            if paused { arguments.append("--pause") }
            do {
                child = try ChildProcess(path: path, arguments: arguments + [file])
            } catch {
                DesktopRun.remove(directory)
                throw error
            }
        }

        /// "first video frame after restart shown" in its verbose player log.
        func firstPicture() throws -> ChildProcess.Line {
            let first = try child.readLines(until: HostTime.now.adding(seconds: DesktopRun.launchTimeout)) {
                $0.text.contains("first video frame after restart shown")
            }
            guard let first else { throw try DesktopRun.gaveUp(child, "mpv", waitingFor: "did not log its first video frame") }
            return first
        }

        func removeDirectory() { DesktopRun.remove(directory) }
    }

    /// A new directory from a mkdtemp(3) template, removed by the bench's interrupt handler too.
    static func temporaryDirectory(_ pattern: String) throws -> String {
        var template = Array(pattern.utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ToolFailure(code: "internal_error", message: "cannot create a temporary directory (\(pattern))")
        }
        let directory = String(cString: made)
        BenchInterrupt.shared.register(directory: directory)
        return directory
    }

    static func remove(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
        BenchInterrupt.shared.unregister(directory: directory)
    }

    /// The failure to report for a child that did not do what was waited for: how it ended,
    /// or a timeout (it is stopped) when it is still running.
    static func gaveUp(_ child: ChildProcess, _ name: String, waitingFor what: String) throws -> ToolFailure {
        let code = name == "reel" ? "internal_error" : "peer_failed"
        guard !child.isOutputOpen else {
            child.stop()
            return ToolFailure(code: "timeout", message: "\(name) \(what) within \(Int(launchTimeout)) s")
        }
        let exit = try child.finish(timeout: quitTimeout)
        return ToolFailure(code: code, message: "\(name) \(what): it \(exit.summary)")
    }

    static func object(_ text: String) -> [String: Any]? {
        guard text.hasPrefix("{") else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    static func event(_ text: String) -> String? { object(text)?["event"] as? String }
}
