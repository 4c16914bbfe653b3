import Foundation
import ReelTestSupport

/// A Wayland compositor on a test desktop, for Reel to run on as it does on GNOME's default
/// session: Weston, drawing with pixman, on its X11 backend: a window on the desktop's X server
/// (which has no window manager, so the window lies at the screen's corner, unframed). That
/// backend turns the X server's input into Wayland input, so xdotool's real pointer and key
/// events reach Reel as a seat's events (Weston's headless backend has no seat), and a
/// screenshot of the X screen shows the compositor's output (`width`×`height`). With the kiosk
/// shell each toplevel window fills the output, so a window's own coordinates (what GTK tells
/// the accessibility tree on Wayland) are the output's; with the desktop shell Weston places
/// windows where it likes (only their sizes are known), on a background of one plain colour
/// (`background`) with no panel, so that windows can be found on screen by colour.
/// Threading: owned by one test; stopped with it (or with its desktop).
final class WestonCompositor {
    let desktop: Desktop
    let socket: String
    let log: String
    /// Where the output's top left corner is on the X screen.
    let origin = (x: 0, y: 0)
    /// The output on the X screen.
    let output: ScreenImage.Box
    private let pid: Int32

    /// The desktop shell's background: plain, so a window is what differs from it.
    static let background = (hex: "#204060", argb: "0xff204060")

    /// How Weston arranges windows. Threading: a value type.
    enum Shell: String, Sendable {
        /// Each window fills the output (its coordinates are the output's).
        case kiosk = "kiosk-shell.so"
        /// Windows as on a desktop, placed by Weston, able to go fullscreen and back.
        case desktop = "desktop-shell.so"
    }

    /// `width`×`height`: the output's size (the desktop's when nil).
    init(on desktop: Desktop, width: Int? = nil, height: Int? = nil, shell: Shell = .kiosk) throws {
        self.desktop = desktop
        output = ScreenImage.Box(x: 0, y: 0, width: width ?? desktop.width, height: height ?? desktop.height)
        socket = "reel-wayland-\(UUID().uuidString.prefix(8))"
        log = desktop.home.appendingPathComponent("weston.log").path
        let config = desktop.home.appendingPathComponent("weston.ini").path
        try "[shell]\nbackground-color=\(Self.background.argb)\npanel-position=none\n".write(toFile: config, atomically: true, encoding: .utf8)
        pid = try desktop.start(["weston", "--backend=x11-backend.so", "--use-pixman", "--width=\(width ?? desktop.width)",
                                 "--height=\(height ?? desktop.height)", "--shell=\(shell.rawValue)", "--socket=\(socket)",
                                 "--idle-time=0", "--config=\(config)"], log: log)
        let runtime = desktop.environment["XDG_RUNTIME_DIR"] ?? ""
        try Desktop.wait("Weston's socket", log: log) {
            FileManager.default.fileExists(atPath: runtime + "/" + socket) && Command.isRunning(pid)
        }
        // Weston's window, on an X server without a window manager (`Desktop(windowManager:
        // false)`): at the screen's corner, unframed. (xdotool's search does not find it;
        // xwininfo's tree lists it.)
        var window = ""
        try Desktop.wait("Weston's window", log: log) {
            let tree = try desktop.run(["xwininfo", "-root", "-tree"]).output
            window = tree.split(separator: "\n").first { $0.contains("(\"weston") }
                .flatMap { $0.split(separator: " ").first }.map(String.init) ?? ""
            return window.hasPrefix("0x")
        }
        // The keys xdotool types go to the X window with the focus: Weston's, which hands them
        // to its focused Wayland window (with no window manager, the focus would otherwise
        // follow the pointer, which the tests rest outside it).
        try desktop.xdotool(["windowfocus", "--sync", window])
    }

    /// What a program started on the desktop needs to be a Wayland client of this compositor
    /// (and nothing of the X server: DISPLAY emptied, so nothing falls back to X11 unseen).
    var environment: [String: String] {
        ["GDK_BACKEND": "wayland", "WAYLAND_DISPLAY": socket, "DISPLAY": ""]
    }

    func stop() {
        kill(pid, SIGTERM)
        for _ in 0..<400 where Command.isRunning(pid) { usleep(5_000) }
    }

    deinit { stop() }
}
