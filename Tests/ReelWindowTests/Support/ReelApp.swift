import Foundation
import ReelTestSupport

/// The real `reel` binary running on a private desktop, and the ways a test reaches it: its
/// window (xdotool), its accessibility tree (AT-SPI), its GActions over D-Bus, its pictures.
/// Threading: owned by one test.
public final class ReelApp {
    public let desktop: Desktop
    public let pid: Int32
    public let log: String
    public private(set) var window = ""
    /// False for a handle on another window of an app that a `ReelApp` already runs.
    private let ownsProcess: Bool
    /// The accessible frame (or dialog) of `window`, by name, for a handle on another window:
    /// the tree holds every window of the app and the first frame is the main window's.
    private var frameName: String?
    /// Running on a Wayland compositor (`WestonCompositor`): no X window to find; the window's
    /// own coordinates are the screen's.
    private var compositor: WestonCompositor?

    /// The binary built next to this test bundle.
    public static let binary = built("reel")

    /// A program built next to this test bundle.
    public static func built(_ name: String) -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent(name).path
    }

    /// `binary`: another program built with Reel (the widget example), whose window is found by
    /// `windowName`.
    /// `environment`: set for this program over the desktop's (REEL_VIDEO_OUTPUT, GDK_DEBUG).
    public init(on desktop: Desktop, arguments: [String] = [], waitForWindow: Bool = true,
                binary: String = ReelApp.binary, windowName: String = "Reel", environment: [String: String] = [:]) throws {
        self.desktop = desktop
        ownsProcess = true
        log = desktop.home.appendingPathComponent("reel-\(UUID().uuidString.prefix(6)).log").path
        pid = try desktop.start([binary] + arguments, log: log, extra: environment)
        if waitForWindow { try findWindow(named: windowName) }
    }

    /// Reel as a Wayland client of `compositor`, its window found in the accessibility tree.
    convenience init(on desktop: Desktop, compositor: WestonCompositor, arguments: [String] = [],
                            environment: [String: String] = [:]) throws {
        try self.init(on: desktop, arguments: arguments, waitForWindow: false,
                      environment: environment.merging(compositor.environment) { $1 })
        self.compositor = compositor
        try waitForElement("the Reel window", timeout: 30) { $0.role == "frame" }
    }

    /// A Reel that something else started (`gio open`, a file manager), found by its window's
    /// title; stopped with this object like one the test launched.
    public init(on desktop: Desktop, adoptingWindowNamed name: String, timeout: Double = 30) throws {
        self.desktop = desktop
        ownsProcess = true
        log = desktop.home.appendingPathComponent("programs.log").path
        var found = ""
        try Desktop.wait("a window named '\(name)'", timeout: timeout) {
            let result = try desktop.run(["xdotool", "search", "--onlyvisible", "--name", name], check: false)
            guard result.status == 0, let id = result.output.split(separator: "\n").last else { return false }
            found = String(id)
            return true
        }
        let owner = try desktop.run(["xdotool", "getwindowpid", found]).output
        guard let pid = Int32(owner.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Command.Failure(command: ["xdotool", "getwindowpid", found],
                                  result: .init(status: -1, stdout: Data(), stderr: Data("no pid: \(owner)".utf8)))
        }
        self.pid = pid
        window = found
    }

    private init(windowOf app: ReelApp, named name: String, timeout: Double) throws {
        desktop = app.desktop
        pid = app.pid
        log = app.log
        ownsProcess = false
        frameName = name
        try findWindow(named: name, timeout: timeout)
    }

    /// Another window of this app (the preferences, a dialog), found by its title, whose
    /// elements are placed on screen by that window. Releasing it leaves the app running.
    public func window(named name: String, timeout: Double = 20) throws -> ReelApp {
        try ReelApp(windowOf: self, named: name, timeout: timeout)
    }

    public func findWindow(named name: String = "Reel", timeout: Double = 30) throws {
        try Desktop.wait("the Reel window", log: log, timeout: timeout) {
            let result = try desktop.run(["xdotool", "search", "--onlyvisible", "--name", name], check: false)
            guard result.status == 0, let id = result.output.split(separator: "\n").last else { return false }
            window = String(id)
            return true
        }
    }

    public var isRunning: Bool { Command.isRunning(pid) }

    /// The window's title as the window manager sees it.
    public var title: String {
        if compositor != nil { return (try? accessibleTree().first { $0.role == "frame" }?.name) ?? "" }
        return (try? desktop.run(["xdotool", "getwindowname", window]).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? ""
    }

    /// The window's outer geometry on screen.
    public func geometry() throws -> (x: Int, y: Int, width: Int, height: Int) {
        if frameName != nil { return try clientGeometry() }
        let text = try desktop.run(["xdotool", "getwindowgeometry", "--shell", window]).output
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        return (values["X"] ?? 0, values["Y"] ?? 0, values["WIDTH"] ?? 0, values["HEIGHT"] ?? 0)
    }

    /// The window's client area on screen as xwininfo finds it. For a window the window manager
    /// decorates (GTK's dialogs without a header bar), xdotool adds the frame's offset twice.
    private func clientGeometry() throws -> (x: Int, y: Int, width: Int, height: Int) {
        let text = try desktop.run(["xwininfo", "-id", window]).output
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { values[parts[0].trimmingCharacters(in: .whitespaces)] = Int(parts[1].trimmingCharacters(in: .whitespaces)) }
        }
        return (values["Absolute upper-left X"] ?? 0, values["Absolute upper-left Y"] ?? 0, values["Width"] ?? 0, values["Height"] ?? 0)
    }

    /// Activates one of the window's GActions over D-Bus (GApplication exports them).
    public func activate(_ action: String, string parameter: String? = nil) throws {
        try desktop.accessibility().activate(action, string: parameter, application: "io.github.reel.Reel",
                                             path: "/io/github/reel/Reel/window/1")
    }

    /// The application's accessibility tree, flattened: role, name, states, screen extents. For
    /// a handle on another window, that window's part of it alone: a dialog's few dozen
    /// elements are read without the hundreds of the windows beside it.
    public func accessibleTree() throws -> [AccessibleNode] {
        // A reader that stopped mid-look is replaced once, as a fresh look would have been.
        let list = try (try? desktop.accessibility().tree(window: frameName))
            ?? desktop.accessibility().tree(window: frameName)
        return try placed(list)
    }

    /// Places elements the reader found on screen.
    private func placed(_ list: [[String: Any]]) throws -> [AccessibleNode] {
        // GTK 4 reports extents relative to its window (it cannot know where the window is on
        // screen), and the X window is larger than the GTK window by the client-side shadow.
        // Screen position = X window origin + shadow margin + GTK's extents.
        let frame = (frameName.flatMap { name in
            list.first { ["frame", "dialog"].contains($0["role"] as? String ?? "") && $0["name"] as? String == name }
        } ?? list.first { $0["role"] as? String == "frame" })?["box"] as? [Int]
        // On the compositor the window fills the output, whose corner is at `origin`.
        let g = try compositor.map { (x: $0.origin.x, y: $0.origin.y, width: frame?[2] ?? 0, height: frame?[3] ?? 0) } ?? geometry()
        let marginX = frame.map { max(0, (g.width - $0[2]) / 2) } ?? 0
        let marginY = frame.map { max(0, (g.height - $0[3]) / 2) } ?? 0
        return list.map { item in
            let box = item["box"] as? [Int] ?? [0, 0, 0, 0]
            return AccessibleNode(role: item["role"] as? String ?? "", name: item["name"] as? String ?? "",
                                  states: Set(item["states"] as? [String] ?? []),
                                  value: item["value"] as? Double,
                                  x: g.x + marginX + box[0], y: g.y + marginY + box[1], width: box[2], height: box[3])
        }
    }

    /// Waits until the accessibility tree has an element matching `match` (the app registers
    /// with the accessibility bus a moment after its window appears), and returns it.
    @discardableResult
    public func waitForElement(_ what: String, timeout: Double = 20,
                               _ match: (AccessibleNode) -> Bool) throws -> AccessibleNode {
        var found: AccessibleNode?
        try Desktop.wait("\(what) in the accessibility tree", log: log, timeout: timeout) {
            found = try accessibleTree().first(where: match)
            return found != nil
        }
        return found!
    }

    /// Waits until one read of the accessibility tree satisfies `condition`, and returns that
    /// read: a step after it can take the elements it needs from there instead of reading the
    /// whole tree again (hundreds of elements take a noticeable part of a second).
    @discardableResult
    public func waitForTree(_ what: String, timeout: Double = 20,
                            _ condition: ([AccessibleNode]) -> Bool) throws -> [AccessibleNode] {
        var tree: [AccessibleNode] = []
        try Desktop.wait("\(what) in the accessibility tree", log: log, timeout: timeout) {
            tree = try accessibleTree()
            return condition(tree)
        }
        return tree
    }

    /// Waits until the accessibility tree has an element whose name ends with `suffix`, and
    /// returns the last such one in tree order. Only names are read on the way from the tree's
    /// end: what follows a long list is found without reading every row.
    @discardableResult
    public func waitForLastElement(_ what: String, nameEndingWith suffix: String,
                                   timeout: Double = 20) throws -> AccessibleNode {
        var found: AccessibleNode?
        try Desktop.wait("\(what) in the accessibility tree", log: log, timeout: timeout) {
            let list = try (try? desktop.accessibility().last(nameEndingWith: suffix))
                ?? desktop.accessibility().last(nameEndingWith: suffix)
            found = try placed(list).last { $0.name.hasSuffix(suffix) }
            return found != nil
        }
        return found!
    }

    /// The element with this accessible name (and role, if given), waiting for it to appear.
    @discardableResult
    public func element(named name: String, role: String? = nil, timeout: Double = 20) throws -> AccessibleNode {
        try waitForElement("'\(name)'", timeout: timeout) { $0.name == name && (role == nil || $0.role == role) }
    }

    /// Brings up the header bar over the picture (and the controls with it) as a person does:
    /// the pointer moves over the picture and comes to rest on the window's top edge, where the
    /// header shows (resting on it keeps it up). Returns the header's element named `name`
    /// once the screen shows it: its symbolic icon, white, drawn on the header's shade, the
    /// window's top rows darker than the picture below the header (faded out, the picture shows
    /// there, whatever it is, and no icon in letterboxing's black).
    @discardableResult
    public func revealHeader(showing name: String = "Main menu", timeout: Double = 20) throws -> AccessibleNode {
        let movie = try element(named: "Video")
        let button = try element(named: name)
        // Through the picture first: a pointer already resting at the top edge would not move.
        try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height / 3)
        try desktop.glide(to: movie.x + movie.width / 2, movie.y + 12)
        func luminance(_ c: ScreenImage.Color) -> Double { 0.3 * c.r + 0.59 * c.g + 0.11 * c.b }
        try Desktop.wait("the header bar to show '\(name)'", log: log, timeout: timeout) {
            let shot = try desktop.screenshot("header")
            let icon = try ScreenImage.brightest(shot, x: button.x, y: button.y, width: button.width, height: button.height)
            // Whole rows, so that no one thing of the picture (a time code, a logo) decides.
            let top = try ScreenImage.average(shot, x: movie.x, y: movie.y + 1, width: movie.width, height: 4)
            let below = try ScreenImage.average(shot, x: movie.x, y: movie.y + 64, width: movie.width, height: 4)
            return icon > 215 && luminance(top) < luminance(below) * 0.6 + 8
        }
        return button
    }

    /// Clicks the middle of an accessible element.
    public func click(_ node: AccessibleNode, times: Int = 1) throws {
        try desktop.click(node.x + node.width / 2, node.y + node.height / 2, times: times)
    }

    /// Asks the app to quit and waits (up to 10 s) until it has. Looked at every 5 ms: it is
    /// gone a few milliseconds after the signal, and every window test waits for it.
    public func stop() {
        kill(pid, SIGTERM)
        for _ in 0..<2000 where Command.isRunning(pid) { usleep(5_000) }
        if Command.isRunning(pid) { kill(pid, SIGKILL) }
    }

    deinit { if ownsProcess { stop() } }
}

/// One element of an accessibility tree. Threading: a value type.
public struct AccessibleNode: Sendable, CustomStringConvertible {
    public let role: String
    public let name: String
    public let states: Set<String>
    /// A range's current value (a slider's position), from AT-SPI's Value interface.
    public var value: Double? = nil
    public let x: Int, y: Int, width: Int, height: Int
    public var isShowing: Bool { states.contains("showing") }
    public var description: String { "\(role) '\(name)' [\(x),\(y) \(width)x\(height)] \(states.sorted())" }
}
