import Foundation
import ReelTestSupport

/// Reads Reel's accessibility tree (AT-SPI) for the tests, through one Python process kept
/// running per desktop: starting Python and pyatspi for every look cost more than the look
/// itself, and window tests look hundreds of times.
/// Threading: owned by one desktop, used from one test thread.
final class AccessibilityReader {
    private let process = Process()
    private let requests = Pipe()
    private let answers = Pipe()
    private var pending = Data()

    init(environment: [String: String], log: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = requests
        process.standardOutput = answers
        FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        // Kept out of every other program the tests start (an X server, the app): one holding
        // the request pipe open would keep the reader from ever seeing its input end.
        for handle in [requests.fileHandleForReading, requests.fileHandleForWriting,
                       answers.fileHandleForReading, answers.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    /// The tree as JSON objects (role, name, states, box, depth, value), one per element.
    func tree() throws -> [[String: Any]] {
        guard process.isRunning else { throw stopped }
        try requests.fileHandleForWriting.write(contentsOf: Data("tree\n".utf8))
        let line = try readLine()
        let answer = try JSONSerialization.jsonObject(with: line)
        if let failure = answer as? [String: Any] {
            throw Command.Failure(command: ["pyatspi"], result: .init(
                status: 1, stdout: Data(), stderr: Data("\(failure["error"] ?? failure)".utf8)))
        }
        return answer as? [[String: Any]] ?? []
    }

    private func readLine() throws -> Data {
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<end]
                pending = Data(pending[pending.index(after: end)...])
                return Data(line)
            }
            let more = answers.fileHandleForReading.availableData
            guard !more.isEmpty else { throw stopped }
            pending.append(more)
        }
    }

    private var stopped: Command.Failure {
        let status = process.isRunning ? -1 : process.terminationStatus
        return Command.Failure(command: ["pyatspi"], result: .init(
            status: status, stdout: pending, stderr: Data("the accessibility reader stopped".utf8)))
    }

    /// Ends the reader.
    func stop() {
        try? requests.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// One request per input line, one JSON line per answer. Each look starts from nothing
    /// cached (libatspi would otherwise answer from what it saw last time, and this process
    /// runs no main loop to hear about changes); a widget that goes while it is read is left out.
    private static let script = """
    import json, sys, pyatspi
    from gi.repository import GLib

    def walk(node, depth, out):
        try:
            ext = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            box = [ext.x, ext.y, ext.width, ext.height]
        except Exception:
            box = [0, 0, 0, 0]
        try:
            states = [pyatspi.stateToString(s) for s in node.getState().getStates()]
            role, name = node.getRoleName(), node.name or ""
        except Exception:
            # A widget that went while the tree was read (a popover closing, controls
            # rebuilt): it and its children are simply not there any more.
            return
        try:
            value = node.queryValue().currentValue
        except Exception:
            value = None
        out.append({"role": role, "name": name, "states": states, "box": box,
                    "depth": depth, "value": value})
        try:
            children = [node.getChildAtIndex(i) for i in range(node.childCount)]
        except Exception:
            children = []
        for child in children:
            if child is not None: walk(child, depth + 1, out)

    for request in sys.stdin:
        try:
            context = GLib.MainContext.default()
            while context.iteration(False):
                pass
            desktop = pyatspi.Registry.getDesktop(0)
            desktop.clear_cache()
            out = []
            for i in range(desktop.childCount):
                app = desktop.getChildAtIndex(i)
                if app is not None and app.name in ("reel", "Reel", "io.github.reel.Reel"):
                    app.clear_cache()
                    walk(app, 0, out)
            print(json.dumps(out), flush=True)
        except Exception as error:
            print(json.dumps({"error": repr(error)}), flush=True)
    """
}
