import Foundation
import ReelCommandLine
import ReelEngine

/// mpv beside Reel in the seek, step and scrub benches: a paused mpv with no video or audio
/// output, driven over JSON IPC. Threading: used from the bench's thread only.
final class MPVPeer {
    private let directory: String
    private let child: ChildProcess
    private let client: MPVClient
    private let timeout: Double

    init(path: String, file: String, timeout: Double) throws {
        var template = Array("/tmp/reel-bench-mpv-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ToolFailure(code: "internal_error", message: "cannot create a directory for mpv's socket")
        }
        directory = String(cString: made)
        BenchInterrupt.shared.register(directory: directory)
        let socketPath = directory + "/ipc.sock"
        let logPath = directory + "/mpv.log"
        self.timeout = timeout
        do {
            child = try ChildProcess(
                path: path,
                arguments: ["--no-config", "--idle=no", "--pause", "--vo=null", "--ao=null", "--hr-seek=yes",
                            "--input-ipc-server=\(socketPath)", file],
                stdout: .file(logPath), stderr: .file(logPath))
            // mpv creates the socket before it starts loading the file, and the client retries
            // every millisecond, so the load's events are never missed.
            client = try MPVClient(socketPath: socketPath, timeout: 10)
            // Loaded: the first playback-restart (the initial frame is decoded while paused).
            _ = try client.wait(deadline: HostTime.now.adding(seconds: 60)) { $0.event == "playback-restart" }
        } catch {
            let said = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: directory)
            BenchInterrupt.shared.unregister(directory: directory)
            if said.isEmpty { throw error }
            throw ToolFailure(code: error.code, message: "\(error.message); mpv said: \(said.suffix(400))")
        }
    }

    /// Request to the `playback-restart` that follows the `seek` event for this request: mpv
    /// sends it once the target is decoded (checked while paused; see BENCHMARKS.md). `flags`
    /// as mpv's `seek` takes them (`absolute+exact`, `absolute+keyframes`).
    func seek(to target: Double, flags: String, requestID: Int) throws -> Double {
        try restart(after: ["seek", target, flags], requestID: requestID)
    }

    /// A command that makes mpv seek (`seek`, `frame-back-step`), timed from the request to
    /// the `playback-restart` after its `seek` event; throws when mpv refuses it.
    func restart(after command: [Any], requestID: Int) throws -> Double {
        let deadline = HostTime.now.adding(seconds: timeout)
        let clock = Stopwatch()
        try client.send(command, requestID: requestID)
        var reply: String?
        var seeking = false
        let note: (MPVClient.Message) -> Void = { message in
            if message.requestID == requestID { reply = message.error ?? "no error field" }
            if message.event == "seek" { seeking = true }
            self.observe(message)
        }
        let restart = try client.wait(deadline: deadline, skipped: note) { message in
            message.event == "playback-restart" && seeking
        }
        let ms = restart.at.seconds(since: clock.start) * 1000
        while reply == nil {
            note(try client.next(deadline: deadline))
        }
        guard reply == "success" else {
            throw ToolFailure(code: "peer_failed", message: "mpv refused \(command): \(reply!)")
        }
        return ms
    }

    /// Sends a command without waiting for anything (its reply is read with the events).
    func send(_ command: [Any], requestID: Int) throws {
        try client.send(command, requestID: requestID)
    }

    /// Asks mpv to report every change of `time-pos` (the time of the picture it shows).
    func observeTimePosition() throws {
        try client.send(["observe_property", 1, "time-pos"], requestID: 900_000)
    }

    /// The latest `time-pos` mpv reported, and the distinct pictures it showed since
    /// `resetDistinct`: the time-pos values it reports between a `playback-restart` and the
    /// next `seek` event (while seeking, time-pos is the seek's target, not a picture).
    private(set) var timePosition: Double?
    private var distinct = Set<Double>()
    private var seeking = false
    var distinctPositions: Int { distinct.count }
    /// `playback-restart` events since `resetDistinct` (seeks that ended with a picture).
    private(set) var restarts = 0
    func resetDistinct() { distinct.removeAll(); restarts = 0 }

    private func observe(_ message: MPVClient.Message) {
        if message.event == "seek" { seeking = true }
        if message.event == "playback-restart" { seeking = false; restarts += 1 }
        guard message.event == "property-change", message.object["name"] as? String == "time-pos",
              let value = message.object["data"] as? Double else { return }
        timePosition = value
        if !seeking { distinct.insert(value) }
    }

    /// Reads whatever mpv sends within `seconds` (a millisecond: what it has sent already).
    func drain(for seconds: Double = 0.001) throws {
        let deadline = HostTime.now.adding(seconds: seconds)
        while true {
            do {
                observe(try client.next(deadline: deadline))
            } catch {
                if error.code == "timeout" { return }
                throw error
            }
        }
    }

    /// `frame-step` while paused: mpv shows the next picture and pauses again; timed from the
    /// request to the `time-pos` change it makes.
    func frameStep(requestID: Int) throws -> Double {
        let deadline = HostTime.now.adding(seconds: timeout)
        let before = timePosition
        let clock = Stopwatch()
        try client.send(["frame-step"], requestID: requestID)
        let changed = try client.wait(deadline: deadline, skipped: { self.observe($0) }) { message in
            self.observe(message)
            return message.event == "property-change" && message.object["name"] as? String == "time-pos"
                && (message.object["data"] as? Double) != before
        }
        return changed.at.seconds(since: clock.start) * 1000
    }

    func close() {
        try? client.send(["quit"], requestID: 0)
        child.stop(grace: 2)
        try? FileManager.default.removeItem(atPath: directory)
        BenchInterrupt.shared.unregister(directory: directory)
    }
}
