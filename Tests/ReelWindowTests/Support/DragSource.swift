import Foundation
import ReelTestSupport
import Testing

/// Another program's window to drag files from, as a person drags from Files: a small GTK 4
/// window (Python) whose label offers `text/uri-list` through a GtkDragSource, dragged with real
/// pointer events onto Reel's window (XDND between the two processes, as on a desktop; on
/// Wayland, the compositor's data device). Its window is all `face`, so it can be found on a
/// screenshot where no window system can be asked (a Wayland compositor places it).
/// Threading: one test at a time, on its desktop.
struct DragSource {
    let desktop: Desktop
    let pid: Int32
    /// Its X window; nil on Wayland.
    let window: String?
    /// On Wayland, the compositor's output on the screen (where the window can be).
    private var output: ScreenImage.Box?
    let log: String

    /// The window's colour: magenta, which no fixture or part of Reel's window shows.
    static let face = "#ff00ff"

    static let script = """
        import sys, gi
        gi.require_version('Gtk', '4.0')
        gi.require_version('Gdk', '4.0')
        from gi.repository import Gtk, Gdk, GLib, Gio
        uris = sys.argv[1:]
        def prepare(source, x, y):
            data = ''.join(u + '\\r\\n' for u in uris).encode()
            return Gdk.ContentProvider.new_for_bytes('text/uri-list', GLib.Bytes.new(data))
        def activate(app):
            window = Gtk.ApplicationWindow(application=app, title='Files to drop')
            window.set_default_size(200, 160)
            label = Gtk.Label(label='Drag me')
            css = Gtk.CssProvider()
            css.load_from_data(b'window, label { background: #ff00ff; color: #ff00ff; }')
            Gtk.StyleContext.add_provider_for_display(Gdk.Display.get_default(), css, 800)
            source = Gtk.DragSource(actions=Gdk.DragAction.COPY)
            source.connect('prepare', prepare)
            source.connect('drag-end', lambda s, d, delete: print('drag ended', flush=True))
            label.add_controller(source)
            window.set_child(label)
            window.present()
        app = Gtk.Application(flags=Gio.ApplicationFlags.NON_UNIQUE)
        app.connect('activate', activate)
        app.run([sys.argv[0]])
        """

    /// Starts the window offering `paths` (as file:// URIs), moved to the screen's bottom
    /// right corner, clear of Reel's window.
    init(on desktop: Desktop, offering paths: [String]) throws {
        self.desktop = desktop
        output = nil
        log = desktop.home.appendingPathComponent("drag-source-\(UUID().uuidString.prefix(8)).log").path
        let uris = paths.map { URL(fileURLWithPath: $0).absoluteString }
        pid = try desktop.start(["/usr/bin/python3", "-c", Self.script] + uris, log: log)
        var found = ""
        try Desktop.wait("the drag source's window", log: log) {
            found = try desktop.run(["xdotool", "search", "--onlyvisible", "--name", "^Files to drop$"], check: false)
                .output.split(separator: "\n").first.map(String.init) ?? ""
            return !found.isEmpty
        }
        window = found
        try desktop.xdotool(["windowmove", "--sync", found, String(desktop.width - 220), String(desktop.height - 180)])
    }

    /// Starts the window offering `paths` as a Wayland client of `compositor`, and waits until
    /// it shows on the compositor's output.
    init(on desktop: Desktop, compositor: WestonCompositor, offering paths: [String]) throws {
        self.desktop = desktop
        window = nil
        log = desktop.home.appendingPathComponent("drag-source-\(UUID().uuidString.prefix(8)).log").path
        let uris = paths.map { URL(fileURLWithPath: $0).absoluteString }
        pid = try desktop.start(["/usr/bin/python3", "-c", Self.script] + uris, log: log, extra: compositor.environment)
        self.output = compositor.output
        try Desktop.wait("the drag source's window on screen", log: log) { try onScreen() != nil }
    }

    /// Where the window shows on the screen: the box of its colour (nil while it shows nowhere).
    func onScreen() throws -> ScreenImage.Box? {
        let box = try ScreenImage.bounds(try desktop.screenshot("drag-source"), of: Self.face, within: output)
        // Its label alone would be a few dozen pixels: the whole window is 200×160.
        return box.flatMap { $0.width >= 100 && $0.height >= 80 ? $0 : nil }
    }

    /// The window's middle on screen.
    func middle() throws -> (x: Int, y: Int) {
        guard let window else {
            let box = try #require(try onScreen(), "the drag source shows nowhere")
            return (box.x + box.width / 2, box.y + box.height / 2)
        }
        let text = try desktop.run(["xdotool", "getwindowgeometry", "--shell", window]).output
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        return ((values["X"] ?? 0) + (values["WIDTH"] ?? 0) / 2, (values["Y"] ?? 0) + (values["HEIGHT"] ?? 0) / 2)
    }

    /// Drags from the window's label to (x, y), in steps as a hand moves, and lets go there;
    /// returns once the source saw the drag end.
    func drag(to x: Int, _ y: Int) throws {
        let from = try middle()
        try desktop.xdotool(["mousemove", String(from.x), String(from.y), "mousedown", "1"])
        for step in 1...20 {
            try desktop.moveMouse(from.x + (x - from.x) * step / 20, from.y + (y - from.y) * step / 20)
            usleep(30_000)
        }
        // A last move over the target: XDND's position message for the drop point.
        try desktop.moveMouse(x + 1, y)
        usleep(100_000)
        try desktop.xdotool(["mouseup", "1"])
        try Desktop.wait("the drag to end", log: log) {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("drag ended")
        }
    }

    func stop() { kill(pid, SIGTERM) }
}
