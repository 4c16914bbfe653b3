import Foundation
import ReelTestSupport

/// Reads Reel's accessibility tree (AT-SPI) and activates its window's actions (D-Bus) for the
/// tests, through one Python process kept running per desktop: starting Python and pyatspi
/// for every look cost more than the look itself, `gdbus call` introspects the window before
/// each call, and window tests do both hundreds of times.
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

    /// False once it has stopped answering, even while its process is still going away (its
    /// answers ended: libatspi can fail hard while a window goes), so that the desktop replaces
    /// it at the next look instead of asking it again.
    var isRunning: Bool { process.isRunning && !ended }
    private var ended = false

    /// The tree as JSON objects (role, name, states, box, depth, value), one per element.
    func tree() throws -> [[String: Any]] {
        try ask(["op": "tree"]) as? [[String: Any]] ?? []
    }

    /// The last element (in tree order) whose name ends with `suffix`, found by walking the
    /// tree from its end and reading only names on the way, preceded by the window's frame
    /// (for placing it on screen); empty when there is none. A list of hundreds of rows takes
    /// seconds to read whole, and a note after it is what a test looks for.
    func last(nameEndingWith suffix: String) throws -> [[String: Any]] {
        try ask(["op": "last", "suffix": suffix]) as? [[String: Any]] ?? []
    }

    /// Activates the GAction `action` of the window at `path` of `application` on the session
    /// bus, with a string parameter or none; throws what D-Bus answered if it fails.
    func activate(_ action: String, string parameter: String?, application: String, path: String) throws {
        var request: [String: Any] = ["op": "activate", "action": action, "bus_name": application, "path": path]
        if let parameter { request["parameter"] = parameter }
        _ = try ask(request)
    }

    private func ask(_ request: [String: Any]) throws -> Any {
        guard process.isRunning else { throw stopped }
        var line = try JSONSerialization.data(withJSONObject: request)
        line.append(UInt8(ascii: "\n"))
        try requests.fileHandleForWriting.write(contentsOf: line)
        let answer = try JSONSerialization.jsonObject(with: try readLine())
        if let failure = answer as? [String: Any], let error = failure["error"] {
            throw Command.Failure(command: ["\(request["op"] ?? "")"], result: .init(
                status: 1, stdout: Data(), stderr: Data("\(error)".utf8)))
        }
        return answer
    }

    private func readLine() throws -> Data {
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<end]
                pending = Data(pending[pending.index(after: end)...])
                return Data(line)
            }
            let more = answers.fileHandleForReading.availableData
            guard !more.isEmpty else {
                ended = true
                throw stopped
            }
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

    /// One JSON request per input line, one JSON line per answer. Each look starts from nothing
    /// cached (libatspi would otherwise answer from what it saw last time, and this process
    /// runs no main loop to hear about changes); a widget that goes while it is read is left out.
    private static let script = """
    import json, sys, pyatspi
    from gi.repository import Gio, GLib

    def record(node, depth):
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
            return None
        try:
            value = node.queryValue().currentValue
        except Exception:
            value = None
        return {"role": role, "name": name, "states": states, "box": box, "depth": depth, "value": value}

    def walk(node, depth, out):
        item = record(node, depth)
        if item is None:
            return
        out.append(item)
        try:
            children = [node.getChildAtIndex(i) for i in range(node.childCount)]
        except Exception:
            children = []
        for child in children:
            if child is not None: walk(child, depth + 1, out)

    def apps():
        context = GLib.MainContext.default()
        while context.iteration(False):
            pass
        desktop = pyatspi.Registry.getDesktop(0)
        desktop.clear_cache()
        found = []
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is not None and app.name in ("reel", "Reel", "io.github.reel.Reel", "reel-widget-example"):
                app.clear_cache()
                found.append(app)
        return found

    def tree():
        out = []
        for app in apps():
            walk(app, 0, out)
        return out

    def last_named(node, depth, suffix):
        try:
            name = node.name or ""
            count = node.childCount
        except Exception:
            return None
        for i in reversed(range(count)):
            try:
                child = node.getChildAtIndex(i)
            except Exception:
                child = None
            if child is not None:
                found = last_named(child, depth + 1, suffix)
                if found is not None:
                    return found
        return record(node, depth) if name.endswith(suffix) else None

    def last(request):
        for app in apps():
            found = last_named(app, 0, request["suffix"])
            if found is None:
                continue
            for i in range(app.childCount):
                frame = record(app.getChildAtIndex(i), 1)
                if frame is not None and frame["role"] == "frame":
                    return [frame, found]
            return [found]
        return []

    def activate(request):
        parameter = request.get("parameter")
        arguments = [GLib.Variant("s", parameter)] if parameter is not None else []
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        bus.call_sync(request["bus_name"], request["path"], "org.gtk.Actions", "Activate",
                      GLib.Variant("(sava{sv})", (request["action"], arguments, {})),
                      None, Gio.DBusCallFlags.NONE, 25000, None)
        return {"done": True}

    for line in sys.stdin:
        try:
            request = json.loads(line)
            op = request["op"]
            answer = tree() if op == "tree" else last(request) if op == "last" else activate(request)
            print(json.dumps(answer), flush=True)
        except Exception as error:
            print(json.dumps({"error": str(error)}), flush=True)
    """
}
