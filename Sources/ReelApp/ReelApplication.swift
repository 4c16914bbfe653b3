import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// Reel as a GtkApplication: one instance per session (a second launch hands its files to the
/// running one over D-Bus), files and URLs from the command line or the file manager
/// (`HANDLES_OPEN`), the application's actions and keys, and the stylesheet.
/// Threading: main thread only; `run` blocks in GLib's main loop.
@MainActor
public final class ReelApplication {
    public static let id = "io.github.reel.Reel"
    public static let version = ReelVersion.string
    let application: UnsafeMutablePointer<GtkApplication>
    private var settings: PlayerSettings?
    private var window: PlayerWindow?
    private var preferences: PreferencesWindow?
    private let options: LaunchOptions
    private var report: LaunchReport?

    /// Options for this process's first open (not forwarded to a running instance).
    public struct LaunchOptions: Sendable {
        public var start: Double?
        public var paused = false
        public var fullscreen = false
        /// Quit this many seconds after the first picture is drawn (measurement, scripts).
        public var exitAfter: Double?
        /// JSON lines on stdout: the first picture drawn, and a summary at quit.
        public var report = false
        public init() {}
    }

    public init(options: LaunchOptions = LaunchOptions()) {
        self.options = options
        // A measured run must do the work itself, not hand its file to a running instance.
        let measured = options.report || options.exitAfter != nil
        let flags = G_APPLICATION_HANDLES_OPEN.rawValue | (measured ? G_APPLICATION_NON_UNIQUE.rawValue : 0)
        application = gtk_application_new(Self.id, GApplicationFlags(flags))
        g_set_application_name("Reel")
        report = LaunchReport(options: options) { [weak self] in self?.quit() }
        Signal.connect(application.raw, "startup") { [weak self] in self?.startup() }
        Signal.connect(application.raw, "activate") { [weak self] in
            guard let self else { return }
            let fresh = self.window == nil
            let window = self.mainWindow()
            // Started without files: the queue of the last run comes back, paused.
            if fresh, !measured, window.restoreQueue() { return }
            window.present()
        }
        Signal.connectOpen(application.raw) { [weak self] files in
            guard let self, !files.isEmpty else { return }
            let names = files.compactMap { GString.take(g_file_get_path($0)) ?? GString.take(g_file_get_uri($0)) }
            let window = self.mainWindow()
            window.open(names, start: self.options.start, paused: self.options.paused)
            if self.options.fullscreen { window.toggleFullscreen() }
        }
    }

    /// Runs until the last window closes; returns the exit status.
    public func run(_ arguments: [String]) -> Int32 {
        var argv = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        return argv.withUnsafeMutableBufferPointer { buffer in
            g_application_run(application.raw.cast(), gint(buffer.count), buffer.baseAddress)
        }
    }

    private func startup() {
        let settings = PlayerSettings()
        self.settings = settings
        // Before any window: GTK chooses its renderer when it shows the first.
        let output = VideoOutput.prepareWindows(preference: settings.videoOutput)
        report?.videoOutput(output)
        reel_log_info("Reel", "drawing: \(output.path.rawValue) (\(output.reason))")
        quitOnSignals()
        loadStyles()
        let app = application.raw
        Actions.add(app, "quit") { [weak self] in self?.quit() }
        Actions.add(app, "preferences") { [weak self] in
            guard let self, let settings = self.settings else { return }
            if self.preferences == nil { self.preferences = PreferencesWindow(settings: settings) }
            self.preferences?.present(over: self.window?.window)
        }
        Actions.add(app, "about") { [weak self] in self?.showAbout() }
        let accels: [(String, [String])] = [
            ("app.quit", ["<Control>q"]),
            ("app.preferences", ["<Control>comma"]),
            ("win.open", ["<Control>o"]),
            ("win.open-url", ["<Control>l"]),
            ("win.save-frame", ["<Control>s"]),
            ("win.save-frame-plain", ["<Control><Shift>s"]),
            ("win.show-help-overlay", ["<Control>question"]),
        ]
        for (action, keys) in accels {
            var list = keys.map { strdup($0) } + [nil]
            list.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                    gtk_application_set_accels_for_action(application.cast(), action, $0)
                }
            }
            list.forEach { free($0) }
        }
    }

    private func quit() {
        window?.finishResumeHistory()
        window?.mpris?.shutdown()
        finishReport()
        window?.playerView.player.close()
        g_application_quit(application.raw.cast())
    }

    /// Logging out, `kill` and Ctrl+C in a terminal end Reel as Quit does, so where the
    /// film was and the queue are kept.
    private func quitOnSignals() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            g_unix_signal_add(signal, { data in
                let app = Int(bitPattern: data)
                MainActor.assumeIsolated {
                    Unmanaged<ReelApplication>.fromOpaque(UnsafeRawPointer(bitPattern: app)!).takeUnretainedValue().quit()
                }
                return reel_source_remove()
            }, me)
        }
    }

    private func mainWindow() -> PlayerWindow {
        if let window { return window }
        let window = PlayerWindow(application: OpaquePointer(application), settings: settings ?? PlayerSettings())
        self.window = window
        window.queue.quitApplication = { [weak self] in self?.quit() }
        if let connection = g_application_get_dbus_connection(application.raw.cast()) {
            // Measured runs are not unique: each gets a name of its own.
            let unique = g_application_get_flags(application.raw.cast()).rawValue & G_APPLICATION_NON_UNIQUE.rawValue == 0
            do {
                window.mpris = try MPRISService(host: window.queue, player: window.playerView.player, connection: connection,
                                                instance: unique ? nil : "instance\(getpid())")
            } catch {
                FileHandle.standardError.write(Data("reel: no media remote (MPRIS): \(error)\n".utf8))
            }
        }
        if let report {
            window.playerView.firstPictureShown = { [weak report] in report?.pictureDrawn() }
            window.closing = { [weak self] in self?.finishReport() }
        }
        return window
    }

    /// The summary is taken while the player still has its session (closing it drops the counts).
    private func finishReport() {
        guard let report else { return }
        let view = window?.playerView
        report.finish(.init(framesDrawn: view?.movie.framesDrawn ?? 0, statistics: view?.player.statistics))
    }

    private func loadStyles() {
        guard let display = gdk_display_get_default() else { return }
        PlayerStyles.load()
        // The person's own look, on top of ours.
        let config = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? NSHomeDirectory() + "/.config"
        let user = config + "/reel/style.css"
        if FileManager.default.fileExists(atPath: user) {
            let theirs = gtk_css_provider_new()!
            gtk_css_provider_load_from_path(theirs, user)
            gtk_style_context_add_provider_for_display(display, theirs.raw.cast(), guint(GTK_STYLE_PROVIDER_PRIORITY_USER))
        }
    }

    private func showAbout() {
        let about = gtk_about_dialog_new()!
        gtk_about_dialog_set_program_name(about.cast(), "Reel")
        gtk_about_dialog_set_version(about.cast(), ReelVersion.string)
        gtk_about_dialog_set_comments(about.cast(), "Plays video the moment you ask, and seeks exactly where you point.")
        gtk_about_dialog_set_logo_icon_name(about.cast(), Self.id)
        gtk_about_dialog_set_license_type(about.cast(), GTK_LICENSE_GPL_3_0)
        if let parent = window?.window { gtk_window_set_transient_for(about.cast(), parent.cast()) }
        gtk_window_present(about.cast())
    }
}
