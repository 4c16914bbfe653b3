import Foundation
import ReelTestSupport

/// A private desktop for one test: an X server with GL (Xvfb, Mesa's llvmpipe), a window
/// manager (openbox, for fullscreen), a D-Bus session bus (GApplication's single instance,
/// remote actions, the accessibility bus), a sound server, and XDG folders of its own. Tests
/// that each make one can run side by side without seeing each other's windows.
/// Threading: owned by one test; everything it started stops when it is released.
public final class Desktop {
    public let display: String
    public let busAddress: String
    public let home: URL
    public let width: Int
    public let height: Int
    /// XDG_DATA_HOME of the programs here: `home/data`, or the share folder of an installation.
    public let dataHome: URL
    private var pids: [Int32] = []
    private var reader: AccessibilityReader?

    private static let nextDisplay = Locked(100 + Int(getpid() % 40) * 20)

    /// `windowManager`: false leaves the X server without one (a nested compositor's window
    /// then lies at the screen's corner, unframed).
    public init(width: Int = 1280, height: Int = 800, dataHome: URL? = nil, windowManager: Bool = true) throws {
        self.width = width
        self.height = height
        home = FileManager.default.temporaryDirectory.appendingPathComponent("reel-desktop-\(getpid())-\(UUID().uuidString.prefix(8))")
        self.dataHome = dataHome ?? home.appendingPathComponent("data")
        for dir in ["config", "cache", "data", "state", "runtime"] {
            try FileManager.default.createDirectory(at: home.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        chmod(home.appendingPathComponent("runtime").path, 0o700)
        // An X display number nobody uses.
        var number = 0
        repeat {
            number = Self.nextDisplay.withLock { n in n += 1; return n }
        } while FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
            || FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
        let name = ":\(number)"
        display = name
        let log = home.appendingPathComponent("desktop.log").path
        let xvfb = try Command.spawnDetached(["Xvfb", name, "-screen", "0", "\(width)x\(height)x24",
                                              "-nolisten", "tcp", "-noreset"], log: log)
        Reaper.watch([xvfb])
        try Self.wait("Xvfb on \(name)", log: log) {
            (try? Command.run(["xdpyinfo", "-display", name], check: false).status) == 0
        }
        // A session bus of our own; its address is printed on its first line.
        let busFile = home.appendingPathComponent("bus-address").path
        // Given an installation's share folder, the bus finds D-Bus services there, as a
        // session's bus finds those in the session's data folders. (Only then: other tests'
        // buses and their accessibility buses stay as they always were.)
        var busEnvironment = ["DISPLAY": name]
        if let dataHome { busEnvironment["XDG_DATA_HOME"] = dataHome.path }
        let bus = try Command.spawnDetached(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"],
                                            environment: busEnvironment, log: busFile)
        Reaper.watch([bus])
        var address = ""
        try Self.wait("dbus-daemon", log: busFile) {
            address = (try? String(contentsOfFile: busFile, encoding: .utf8))?
                .split(separator: "\n").first.map(String.init) ?? ""
            return address.hasPrefix("unix:")
        }
        busAddress = address
        pids = [xvfb, bus]
        if windowManager {
            let wm = try Command.spawnDetached(["openbox", "--sm-disable"], environment: baseEnvironment, log: log)
            pids.append(wm)
            Reaper.watch([wm])
        }
        _ = try? SoundServer.ensure()
    }

    deinit { stop() }


    public func stop() {
        reader?.stop()
        reader = nil
        let running = !pids.isEmpty
        for pid in pids.reversed() { kill(pid, SIGTERM) }
        for pid in pids { _ = Command.isRunning(pid) }
        pids.removeAll()
        // Screenshots and logs go with the desktop (they piled up by the hundred in /tmp);
        // REEL_TEST_KEEP_DESKTOP=1 keeps them for a look after a failure.
        if running, ProcessInfo.processInfo.environment["REEL_TEST_KEEP_DESKTOP"] == nil {
            try? FileManager.default.removeItem(at: home)
        }
    }

    private var baseEnvironment: [String: String] {
        [
            "DISPLAY": display,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
            "XDG_DATA_HOME": dataHome.path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "XDG_RUNTIME_DIR": home.appendingPathComponent("runtime").path,
        ]
    }

    /// What a program started on this desktop sees.
    public var environment: [String: String] {
        var env = baseEnvironment
        env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        env["GDK_BACKEND"] = "x11"
        env["GTK_A11Y"] = "atspi"
        env["NO_AT_BRIDGE"] = "0"
        env["GSETTINGS_BACKEND"] = "keyfile"
        if let pulse = ProcessInfo.processInfo.environment["PULSE_SERVER"] { env["PULSE_SERVER"] = pulse }
        return env
    }

    /// Programs the bus starts (D-Bus activation) get this desktop's environment, as a
    /// session manager hands its session's to the bus.
    public func shareEnvironmentWithBus() throws {
        let pairs = environment.filter { $0.key != "DBUS_SESSION_BUS_ADDRESS" }
            .map { "'\($0.key)': '\($0.value)'" }.sorted().joined(separator: ", ")
        try run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                 "--method", "org.freedesktop.DBus.UpdateActivationEnvironment", "{\(pairs)}"])
    }

    /// What reads the accessibility tree of programs on this desktop, started on first use.
    /// One that stopped (libatspi can fail hard while a window goes) is replaced.
    func accessibility() throws -> AccessibilityReader {
        if let reader, reader.isRunning { return reader }
        reader?.stop()
        let started = try AccessibilityReader(environment: environment,
                                              log: home.appendingPathComponent("accessibility.log").path)
        reader = started
        return started
    }

    /// Starts a program on this desktop (with `extra` over its environment); it is stopped with
    /// the desktop.
    @discardableResult
    public func start(_ arguments: [String], log: String? = nil, extra: [String: String] = [:]) throws -> Int32 {
        let pid = try Command.spawnDetached(arguments, environment: environment.merging(extra) { $1 },
                                            log: log ?? home.appendingPathComponent("programs.log").path)
        pids.append(pid)
        Reaper.watch([pid])
        return pid
    }

    /// Writes Reel's settings (lines of its keyfile group, such as `dont-hide-controls=true`)
    /// for the programs started after it, as a person's earlier choices.
    public func writeSettings(_ lines: [String]) throws {
        let folder = home.appendingPathComponent("config/glib-2.0/settings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try (["[io/github/reel/Reel]"] + lines).joined(separator: "\n").appending("\n")
            .write(to: folder.appendingPathComponent("keyfile"), atomically: true, encoding: .utf8)
    }

    /// Runs a program on this desktop and waits for it.
    @discardableResult
    public func run(_ arguments: [String], check: Bool = true, extra: [String: String] = [:]) throws -> Command.Result {
        try Command.run(arguments, environment: environment.merging(extra) { $1 }, check: check)
    }

    // MARK: Input and pictures

    public func xdotool(_ arguments: [String]) throws {
        try run(["xdotool"] + arguments)
    }

    public func moveMouse(_ x: Int, _ y: Int) throws { try xdotool(["mousemove", String(x), String(y)]) }

    /// Moves the pointer to (`x`, `y`) the way a hand does: in several small steps, a few
    /// milliseconds apart (one jump is a single event, which apps rightly treat differently).
    public func glide(to x: Int, _ y: Int, steps: Int = 6) throws {
        let origin = try run(["xdotool", "getmouselocation", "--shell"]).output
        var at: [String: Int] = [:]
        for line in origin.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { at[String(parts[0])] = Int(parts[1]) }
        }
        let x0 = at["X"] ?? x, y0 = at["Y"] ?? y
        for i in 1...steps {
            try moveMouse(x0 + (x - x0) * i / steps, y0 + (y - y0) * i / steps)
            usleep(40_000)
        }
    }

    public func click(_ x: Int, _ y: Int, times: Int = 1) throws {
        try xdotool(["mousemove", String(x), String(y), "click", "--repeat", String(times), "--delay", "80", "1"])
    }

    public func key(_ keys: String...) throws { try xdotool(["key", "--delay", "50"] + keys) }

    /// The whole screen as a PNG file.
    public func screenshot(_ name: String) throws -> String {
        let path = home.appendingPathComponent("\(name).png").path
        // Light compression: a third less time to write, and the tests read each one once or twice.
        try run(["sh", "-c", "xwd -root -silent -display \(display) | convert xwd:- -define png:compression-level=1 png:\(Command.shellQuote(path))"])
        return path
    }

    /// Waits until `condition` holds, polling; throws with `what` and the log on timeout.
    public static func wait(_ what: String, log: String? = nil, timeout: Double = 20,
                            _ condition: () throws -> Bool) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        // Looked at again soon at first (most conditions hold within a frame or two of the
        // step that caused them), then every 50 ms, so a long wait does not busy the machine.
        var pause: useconds_t = 5_000
        while try !condition() {
            guard Date() < deadline else {
                let text = log.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
                throw Command.Failure(command: [what], result: .init(status: -1, stdout: Data(),
                                                                      stderr: Data("timed out: \(text.suffix(3000))".utf8)))
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }
}
