import Foundation
import ReelTestSupport

/// Reads Reel's accessibility tree (AT-SPI) and activates its window's actions (D-Bus) for the
/// tests, through one Python process kept running per desktop: starting Python and pyatspi
/// for every look cost more than the look itself, `gdbus call` introspects the window before
/// each call, and window tests do both hundreds of times. A look asks the app about a whole
/// level of the tree before awaiting the answers, instead of one question at a time.
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

    /// The tree as JSON objects (role, name, states, box, depth, value), one per element; of
    /// the app's first frame or dialog titled `window` alone if given (empty while there is none).
    func tree(window: String? = nil) throws -> [[String: Any]] {
        var request: [String: Any] = ["op": "tree"]
        if let window { request["window"] = window }
        return try ask(request) as? [[String: Any]] ?? []
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
    from gi.repository import Atspi, Gio, GLib

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

    # The whole tree is read over the accessibility bus itself, a level of the tree asked at
    # once: through pyatspi one question at a time waits for each answer (six or so per
    # element, a fifth of a millisecond each), where the app answers a level's questions in
    # one go. The questions and their reading are pyatspi's own (ChildCount and
    # GetChildAtIndex, which name GtkStack's pages where GetChildren leaves them out; the role's
    # name from libatspi's table): the elements, in the same order, are those a walk with
    # pyatspi (`record` on each child in turn) reads.
    ACCESSIBLE = "org.a11y.atspi.Accessible"
    PROPERTIES = "org.freedesktop.DBus.Properties"
    REGISTRY = ("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root")
    WINDOW_COORDS = GLib.Variant("(u)", (pyatspi.WINDOW_COORDS,))
    STATE_NAMES = {i: pyatspi.stateToString(pyatspi.StateType(i)) for i in pyatspi.StateType._enum_lookup}
    connection = None

    def a11y_bus():
        global connection
        if connection is None or connection.is_closed():
            session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
            address = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None, None,
                                        Gio.DBusCallFlags.NONE, 25000, None).unpack()[0]
            connection = Gio.DBusConnection.new_for_address_sync(
                address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
                None, None)
        return connection

    def ask_all(questions):
        # Every question (object, interface, method, parameters) sent before any answer is
        # awaited; the answers in order, None where one failed (an element that went, an
        # interface it lacks).
        bus = a11y_bus()
        answers = [None] * len(questions)
        waiting = [len(questions)]
        def answered(source, result, i):
            try:
                answers[i] = source.call_finish(result).unpack()
            except Exception:
                answers[i] = None
            waiting[0] -= 1
        for i, ((bus_name, path), interface, method, parameters) in enumerate(questions):
            bus.call(bus_name, path, interface, method, parameters, None, Gio.DBusCallFlags.NONE, 25000, None, answered, i)
        context = GLib.MainContext.default()
        while waiting[0] > 0:
            context.iteration(True)
        return answers

    # The questions' parameters are made once: making a GLib.Variant costs Python more than
    # sending the question.
    PROPS = {}
    INDEXES = {}

    def prop(name, interface=ACCESSIBLE):
        if (interface, name) not in PROPS:
            PROPS[(interface, name)] = (PROPERTIES, "Get", GLib.Variant("(ss)", (interface, name)))
        return PROPS[(interface, name)]

    def index(i):
        if i not in INDEXES:
            INDEXES[i] = GLib.Variant("(i)", (i,))
        return INDEXES[i]

    def children(parents):
        # The children of each (element, child count), in order, left out where they went.
        questions = [(element, ACCESSIBLE, "GetChildAtIndex", index(i))
                     for element, count in parents for i in range(count)]
        found = [tuple(answer[0]) if answer is not None else None for answer in ask_all(questions)]
        result, at = [], 0
        for element, count in parents:
            result.append([c for c in found[at:at + count] if c is not None and c[1] != "/org/a11y/atspi/null"])
            at += count
        return result

    def window_named(name, apps):
        # The first frame or dialog of the apps with this name, as the tests place a window's
        # elements by it.
        counts = ask_all([(app,) + prop("ChildCount") for app in apps])
        windows = [w for found in children([(app, c[0] if c is not None else 0) for app, c in zip(apps, counts)])
                   for w in found]
        answers = ask_all([q for w in windows for q in ((w, ACCESSIBLE, "GetRole", None), (w,) + prop("Name"))])
        for k, w in enumerate(windows):
            role, title = answers[2 * k], answers[2 * k + 1]
            if role is not None and title is not None and title[0] == name and role_name(w, role[0]) in ("frame", "dialog"):
                return w
        return None

    def role_name(element, role):
        try:
            kind = Atspi.Role(role)
            if kind != Atspi.Role.EXTENDED:
                return Atspi.role_get_name(kind)
        except Exception:
            pass
        return a11y_bus().call_sync(element[0], element[1], ACCESSIBLE, "GetRoleName", None, None,
                                    Gio.DBusCallFlags.NONE, 25000, None).unpack()[0]

    def tree(window):
        count = ask_all([(REGISTRY,) + prop("ChildCount")])[0]
        found = children([(REGISTRY, count[0] if count is not None else 0)])[0]
        names = ask_all([(app,) + prop("Name") for app in found])
        level = [(app, 0) for app, name in zip(found, names)
                 if name is not None and name[0] in ("reel", "Reel", "io.github.reel.Reel", "reel-widget-example")]
        if window is not None:
            named = window_named(window, [app for app, _ in level])
            level = [(named, 1)] if named is not None else []
        tops = [element for element, _ in level]
        records, kids = {}, {}
        while level:
            questions = []
            for element, _ in level:
                questions += [(element, ACCESSIBLE, "GetRole", None), (element,) + prop("Name"),
                              (element, ACCESSIBLE, "GetState", None),
                              (element, "org.a11y.atspi.Component", "GetExtents", WINDOW_COORDS),
                              (element,) + prop("CurrentValue", "org.a11y.atspi.Value"), (element,) + prop("ChildCount")]
            answers = ask_all(questions)
            parents = []
            for k, (element, depth) in enumerate(level):
                role, name, state, extents, value, count = answers[6 * k:6 * k + 6]
                # A widget that went while the tree was read: it and its children are not there.
                if role is None or name is None or state is None:
                    continue
                bits = state[0]
                states = [text for bit, text in STATE_NAMES.items()
                          if bit < 32 * len(bits) and (bits[bit // 32] >> (bit % 32)) & 1]
                records[element] = {"role": role_name(element, role[0]), "name": name[0] or "", "states": states,
                                    "box": list(extents[0]) if extents is not None else [0, 0, 0, 0],
                                    "depth": depth, "value": value[0] if value is not None else None}
                parents.append((element, count[0] if count is not None else 0))
            level = []
            for (element, _), found in zip(parents, children(parents)):
                kids[element] = found
                level += [(child, records[element]["depth"] + 1) for child in found]
        out = []
        def emit(element):
            if element in records:
                out.append(records[element])
                for child in kids.get(element, []):
                    emit(child)
        for element in tops:
            emit(element)
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
            answer = tree(request.get("window")) if op == "tree" else last(request) if op == "last" else activate(request)
            print(json.dumps(answer), flush=True)
        except Exception as error:
            print(json.dumps({"error": str(error)}), flush=True)
    """
}
