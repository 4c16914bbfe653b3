import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// Reel as a GtkApplication: one instance per session. A second launch hands its command line
/// (files, URLs, options) to the running one over D-Bus (`command-line`, in the primary); the
/// desktop reaches it by D-Bus activation too (`open` and `activate`, as DBusActivatable apps
/// are started); the application's actions and keys, and the stylesheet.
/// Threading: main thread only; `run` blocks in GLib's main loop.
@MainActor
public final class ReelApplication {
    public static let id = "io.github.reel.Reel"
    public static let version = ReelVersion.string
    let application: UnsafeMutablePointer<GtkApplication>
    private var settings: PlayerSettings?
    private var window: PlayerWindow?
    private var preferences: PreferencesWindow?
    private var report: LaunchReport?
    /// Shown instead of the player's window when files Reel needs are missing.
    private var missingFilesNotice: UnsafeMutablePointer<GtkWidget>?

    public init() {
        // First: GTK, GApplication's --help and every label below read the person's language.
        Translation.start(localeDirectory: LocaleDirectory.path)
        let flags = G_APPLICATION_HANDLES_OPEN.rawValue | G_APPLICATION_HANDLES_COMMAND_LINE.rawValue
        // AdwApplication: libadwaita's widgets and GNOME's style, started with the app.
        application = UnsafeMutablePointer<GtkApplication>(OpaquePointer(adw_application_new(Self.id, GApplicationFlags(flags))))
        g_set_application_name("Reel")
        let app = application.raw
        CommandLineOptions.declare(on: app.cast())
        Signal.connectReturningStatus(app, "handle-local-options") { [weak self] options in
            self?.handleLocalOptions(options.assumingMemoryBound(to: GVariantDict.self)) ?? 1
        }
        Signal.connectReturningStatus(app, "command-line") { [weak self] line in
            self?.handleCommandLine(line.assumingMemoryBound(to: GApplicationCommandLine.self)) ?? 1
        }
        Signal.connect(app, "startup") { [weak self] in self?.startup() }
        Signal.connect(app, "activate") { [weak self] in self?.activate() }
        // D-Bus activation and `gio open`: files without options.
        Signal.connectOpen(app) { [weak self] files in
            guard let self, !files.isEmpty else { return }
            self.open(files.compactMap(Self.name(of:)), options: CommandLineOptions.Open())
        }
    }

    /// In the process that was started, before it looks for a running Reel: what only this
    /// process does (the version; a measured run, which must do the work itself rather than
    /// hand its file on, so it does not register as the one instance).
    private func handleLocalOptions(_ options: UnsafeMutablePointer<GVariantDict>) -> Int32 {
        if CommandLineOptions.wantsVersion(options) {
            print("reel \(Self.version)")
            return 0
        }
        if let problem = CommandLineOptions.problem(in: options) {
            FileHandle.standardError.write(Data("reel: \(problem)\n".utf8))
            return 2
        }
        let measure = CommandLineOptions.measure(from: options)
        if measure.isRequested {
            let app: UnsafeMutablePointer<GApplication> = application.raw.cast()
            g_application_set_flags(app, GApplicationFlags(g_application_get_flags(app).rawValue | G_APPLICATION_NON_UNIQUE.rawValue))
            report = LaunchReport(options: measure) { [weak self] in self?.quit() }
        }
        return -1
    }

    /// In the primary instance, for its own command line or a later launch's: the files open
    /// in the window (relative paths against the directory that launch ran in), with the
    /// options; without files the window comes forward.
    private func handleCommandLine(_ line: UnsafeMutablePointer<GApplicationCommandLine>) -> Int32 {
        if let notice = missingFilesNotice {
            gtk_window_present(notice.cast())
            return 1
        }
        guard let dictionary = g_application_command_line_get_options_dict(line) else { return 1 }
        let options = CommandLineOptions.open(from: dictionary)
        var count: gint = 0
        let arguments = g_application_command_line_get_arguments(line, &count)
        defer { g_strfreev(arguments) }
        var names: [String] = []
        for index in 1..<max(1, Int(count)) {
            guard let argument = arguments?[index], let file = g_application_command_line_create_file_for_arg(line, argument)
            else { continue }
            if let name = Self.name(of: file) { names.append(name) }
            g_object_unref(file.raw)
        }
        if names.isEmpty {
            activate()
            if options.paused { window?.playerView.player.pause() }
            if options.fullscreen { window?.setFullscreen(true) }
        } else {
            open(names, options: options)
        }
        return 0
    }

    private func open(_ names: [String], options: CommandLineOptions.Open) {
        if let notice = missingFilesNotice { return gtk_window_present(notice.cast()) }
        let window = mainWindow()
        window.open(names, start: options.start, paused: options.paused)
        window.bringForward()
        if options.fullscreen { window.setFullscreen(true) }
    }

    /// Started without files: the queue of the last run comes back, paused (not in a measured
    /// run); an open window comes forward.
    private func activate() {
        if let notice = missingFilesNotice { return gtk_window_present(notice.cast()) }
        let fresh = window == nil
        let window = mainWindow()
        if fresh, report == nil, window.restoreQueue() { return }
        window.present()
    }

    /// A local file's path, else its URI (web addresses).
    private static func name(of file: OpaquePointer) -> String? {
        GString.take(g_file_get_path(file)) ?? GString.take(g_file_get_uri(file))
    }

    /// Runs until the last window closes; returns the exit status.
    public func run(_ arguments: [String]) -> Int32 {
        var argv = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let status = argv.withUnsafeMutableBufferPointer { buffer in
            g_application_run(application.raw.cast(), gint(buffer.count), buffer.baseAddress)
        }
        // GApplication reports 0 for a local command line once a window kept the main loop
        // running, whatever the command-line handler returned.
        return missingFilesNotice == nil ? status : 1
    }

    private func startup() {
        // Dark around the picture, as video players are (the person's light/dark choice for
        // other apps does not make a film's surroundings glare).
        adw_style_manager_set_color_scheme(adw_style_manager_get_default(), ADW_COLOR_SCHEME_PREFER_DARK)
        // Before anything loads them (the window files, the stylesheet, the settings' schema): an
        // incomplete installation is told to the person, in a window and on stderr, and the
        // player's window never opens.
        var missing = DataDirectory.missingFiles()
        let settings = missing.isEmpty ? PlayerSettings.load() : nil
        if settings == nil, missing.isEmpty {
            missing = ["the settings schema \(PlayerSettings.schemaID) (\(PlayerSettings.schemaID).gschema.xml, compiled in a glib-2.0/schemas folder)"]
        }
        guard let settings, missing.isEmpty else {
            FileHandle.standardError.write(Data("reel: \(MissingFilesNotice.heading)\n\(MissingFilesNotice.message(missing: missing))\n".utf8))
            missingFilesNotice = MissingFilesNotice.present(on: application, missing: missing)
            return
        }
        self.settings = settings
        // Before any window: GTK chooses its renderer when it shows the first.
        let output = VideoOutput.prepareWindows(preference: settings.videoOutput)
        let subsurface = SubsurfaceChoice.current(for: output)
        let directPut = DirectPutChoice.current(for: output)
        report?.videoOutput(output, subsurface: subsurface, directPut: directPut)
        reel_log_info("Reel", "drawing: \(output.path.rawValue) (\(output.reason)); subsurface: \(subsurface.reason); "
                      + "direct put: \(directPut.reason)")
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
        for (action, keys) in KeyAction.all {
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
                window.mpris = try MPRISService(host: window.queue, view: window.playerView, connection: connection,
                                                instance: unique ? nil : "instance\(getpid())")
            } catch {
                FileHandle.standardError.write(Data("reel: no media remote (MPRIS): \(error)\n".utf8))
            }
        }
        if let report {
            report.follow(window.playerView.model)
            window.playerView.firstPictureShown = { [weak report, weak window] in
                report?.firstPictureOfFile(window?.playerView.movie.shown, stream: window?.playerView.model.mediaInfo?.videoStream)
            }
            window.closing = { [weak self] in self?.finishReport() }
        }
        return window
    }

    /// The summary is taken while the player still has its session (closing it drops the counts).
    private func finishReport() {
        guard let report else { return }
        let view = window?.playerView
        report.finish(.init(framesDrawn: view?.movie.framesDrawn ?? 0, picturesPutDirectly: view?.movie.picturesPutDirectly ?? 0,
                            statistics: view?.player.statistics))
    }

    private func loadStyles() {
        guard let display = gdk_display_get_default() else { return }
        PlayerStyles.load()
        // Reel's own icon (the window's, About's) where it is, installed or not: run from the
        // source tree, the desktop's icon theme knows nothing of it.
        if let icons = DataDirectory.iconFolder { gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(display), icons) }
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
        let about = adw_about_window_new()!
        let window = OpaquePointer(about)
        adw_about_window_set_application_name(window, "Reel")
        adw_about_window_set_application_icon(window, Self.id)
        adw_about_window_set_version(window, ReelVersion.string)
        adw_about_window_set_developer_name(window, tr("Reel developers"))
        adw_about_window_set_comments(window, tr("Plays video the moment you ask, and seeks exactly where you point."))
        adw_about_window_set_license_type(window, GTK_LICENSE_GPL_3_0)
        adw_about_window_set_copyright(window, tr("© 2026 Reel developers"))
        if let parent = self.window?.window { gtk_window_set_transient_for(about.cast(), parent.cast()) }
        gtk_window_present(about.cast())
    }

}
