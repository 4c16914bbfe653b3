import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// Reel's main window (ui/window.ui): a header bar over the player view, with the window's
/// actions, keys, drag-and-drop, fullscreen, and its title and size following the media.
/// Threading: main thread only.
@MainActor
public final class PlayerWindow {
    public let window: UnsafeMutablePointer<GtkWidget>
    public let playerView: PlayerView
    private let builder: UIBuilder
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let application: OpaquePointer
    private let inhibitor: IdleInhibitor
    private var infoCard: InfoCard?
    private var sizedForMedia = false
    private var presentWhenLoaded: Timer?
    /// Called as the window is about to close, before its player does.
    var closing: (@MainActor () -> Void)?
    private var speedAction: OpaquePointer?
    /// The speed last asked for: quick key presses step from it, not from the engine's answer
    /// to the previous one, which may not have arrived yet.
    private var requestedSpeed = 1.0
    private lazy var heldArrows = HeldArrowKeys(player: playerView.player)
    /// Subtitle menu, keys, drops and preferences (nil for a backend without subtitles).
    private(set) var subtitles: SubtitleController?
    /// What plays after what; next/previous; remembered across restarts.
    private(set) var queue: QueueController!
    private lazy var notice = Notice(view: playerView)
    private var queuePanel: QueuePanel?
    /// Where files were left; the key and source of what is open now.
    private let history = ResumeHistory()
    private var historyKey: String?
    private var historySource: String?
    private var lastHistorySave = Date.distantPast
    /// The desktop's media remote, once the app is on the session bus.
    var mpris: MPRISService?

    public init(application: OpaquePointer, settings: PlayerSettings) {
        self.application = application
        builder = UIBuilder("window")
        window = builder.widget("window")
        titleLabel = builder.widget("title-label")
        playerView = PlayerView(settings: settings)
        inhibitor = IdleInhibitor(application: application, window: window)
        gtk_window_set_application(window.cast(), application.cast())
        gtk_window_set_child(window.cast(), playerView.widget)
        installActions()
        installKeys()
        installDrop()
        installHelpOverlay()
        subtitles = SubtitleController(window: window, player: playerView.player, settings: settings,
                                       trackItems: OpaquePointer(builder.object("subtitle-track-items")),
                                       audioItems: OpaquePointer(builder.object("audio-track-items")))
        subtitles?.redraw = { [weak self] in self?.playerView.movie.redraw() }
        subtitles?.say = { [weak self] text in self?.notice.show(text, seconds: SubtitleController.noticeSeconds) }
        // Subtitles move up over the controls while they show, as mpv's do over its OSC.
        let hostHook = playerView.controlsVisibilityChanged
        playerView.controlsVisibilityChanged = { [weak self] visible in
            hostHook?(visible)
            self?.liftSubtitles(visible)
        }
        if let subtitles { playerView.movie.subtitles = { [weak subtitles] in subtitles?.image(at: $0, width: $1, height: $2) } }
        playerView.doubleClicked = { [weak self] in self?.toggleFullscreen() }
        playerView.eventObserver = { [weak self] event in self?.observe(event) }
        queue = QueueController(player: playerView.player, settings: settings) { [weak self] source, start, play in
            self?.load(source, start: start, play: play)
        }
        queue.notify = { [weak self] text in self?.notice.show(text) }
        queue.prepareNext = { [weak self] item in self?.prepareNext(item) }
        queue.raiseWindow = { [weak self] in self?.present() }
        queue.observe { [weak self] in self?.mpris?.refresh() }
        let panel = QueuePanel(controller: queue)
        panel.chooseFiles = { [weak self] done in
            guard let self else { return }
            OpenDialogs.chooseFiles(parent: self.window, title: "Add to the Queue", accept: "_Add", done)
        }
        gtk_header_bar_pack_end(builder.widget("header-bar").cast(), panel.button)
        queuePanel = panel
        Signal.connectPointer(window.raw, "notify::fullscreened") { [weak self] _ in
            guard let self else { return }
            self.playerView.isFullscreen = self.isFullscreen
        }
        Signal.connectReturning(window.raw, "close-request") { [weak self] in
            guard let self else { return false }
            // Keep playing in the background (a preference): the window goes, the sound stays,
            // and the media keys, MPRIS and opening Reel again bring the window back.
            if self.playerView.settings.backgroundPlayback, self.isPlaying {
                self.inBackground = true
                gtk_widget_set_visible(self.window, 0)
                return true
            }
            return self.finishClosing()
        }
    }

    /// Whether something plays (a break counts).
    private var isPlaying: Bool {
        let state = playerView.player.state
        return state == .playing || state == .stalled || state == .suspended
    }

    /// Hidden by closing while playing in the background.
    private(set) var inBackground = false

    /// Shows the window again after it went to the background.
    public func present() {
        inBackground = false
        gtk_window_present(window.cast())
    }

    /// The window really closes: playback stops and Reel quits with it.
    private func finishClosing() -> Bool {
        finishResumeHistory()
        closing?()
        inhibitor.set(false)
        playerView.player.close()
        return false
    }

    /// Opens media: one file or URL, or several (folders and playlists expanded) as a new
    /// queue whose first item plays.
    public func open(_ source: String, start: Double? = nil, paused: Bool = false) {
        open([source], start: start, paused: paused)
    }

    public func open(_ sources: [String], start: Double? = nil, paused: Bool = false) {
        notice.hide()
        // A new queue takes its first item's shape; moving through the queue keeps the
        // window as the person left it.
        sizedForMedia = false
        queue.open(sources, start: start, play: !paused && playerView.settings.autoplay)
    }

    /// Writes where the open file is (at pauses, switches, quitting, and now and then).
    func saveResumePosition() {
        lastHistorySave = Date()
        history.save()
    }

    /// Saves and stops following the player: closing it reports the position going back to
    /// nothing, which must not overwrite where the film was left.
    func finishResumeHistory() {
        saveResumePosition()
        historyKey = nil
        historySource = nil
    }

    /// Adds to the queue without interrupting what plays.
    public func enqueue(_ sources: [String]) { queue.append(sources) }

    /// Reopens the queue of the last run (paused on its current item); false when there is none.
    public func restoreQueue() -> Bool { queue.restore() }

    /// Tells the player what follows, to be prepared ahead. An item with a remembered position
    /// is left to open the ordinary way, so that it resumes there.
    private func prepareNext(_ item: String?) {
        guard let item else { playerView.player.setNext(nil, audioStream: nil); return }
        if playerView.settings.resumePlayback != "never", resumes(item) {
            playerView.player.setNext(nil, audioStream: nil)
            return
        }
        let path = (try? MediaSource(parsing: item))?.description ?? item
        playerView.player.setNext(item, audioStream: playerView.settings.audioChoice(for: path))
    }

    /// Whether the resume history holds a position for `item`. Its key reads two megabytes of
    /// the file, and the queue asks again after every change: the last answer is kept until
    /// the next item opens.
    private func resumes(_ item: String) -> Bool {
        if let known = nextResumes, known.item == item { return known.resumes }
        let answer = ResumeHistory.key(for: item).flatMap { history.position(forKey: $0) } != nil
        nextResumes = (item, answer)
        return answer
    }

    private var nextResumes: (item: String, resumes: Bool)?

    /// Opens one item of the queue. When the window is not shown yet it waits (briefly) for
    /// the media's size, so that it appears at the right size instead of jumping to it.
    private func load(_ source: String, start: Double?, play: Bool) {
        saveResumePosition()
        nextResumes = nil   // what was played since may have left a position
        // Breaks belong to the item they were scheduled in.
        (playerView.player as? InterstitialPlayer)?.clearSchedule()
        historySource = source
        historyKey = ResumeHistory.key(for: source)
        setTitle((try? MediaSource(parsing: source))?.displayName ?? source)
        subtitles?.willOpen(source)
        let mode = playerView.settings.resumePlayback
        if start == nil, mode != "never", let key = historyKey, let resume = history.position(forKey: key) {
            let time = TimeFormat.clock(resume)
            if mode == "ask" {
                playerView.open(source, start: nil, paused: true)
                notice.show("Resume from \(time)?", actions: [
                    ("Resume", { [weak self] in
                        self?.playerView.player.seek(to: resume, mode: .exact)
                        self?.playerView.player.play()
                    }),
                    ("Start Over", { [weak self] in self?.playerView.player.play() }),
                ], seconds: 30)
            } else {
                playerView.open(source, start: resume, paused: !play)
                if play && !playerView.settings.autoplay { playerView.player.play() }
                notice.show("Resumed from \(time)", actions: [
                    ("Start Over", { [weak self] in self?.playerView.player.seek(to: 0, mode: .exact) }),
                ], seconds: 8)
            }
        } else {
            playerView.open(source, start: start, paused: !play)
            if play && !playerView.settings.autoplay { playerView.player.play() }
        }
        if gtk_widget_get_visible(window) == 0 {
            presentWhenLoaded = Timer.once(after: 0.3) { [weak self] in self?.present() }
        }
    }

    // MARK: Events

    private func observe(_ event: PlayerEvent) {
        subtitles?.observe(event)
        // The remote hears of it after the queue has taken it in (stopped or not, what is next).
        defer { mpris?.handle(event) }
        switch event {
        case .interstitialStarted(let report):
            notice.show("Break: \(report.source)", seconds: 3)
        case .nextItemStarted:
            // As at any end: the finished item is forgotten by the resume history, its breaks
            // go with it, and the queue moves on (which tells the player what follows next).
            if let key = historyKey { history.forget(key: key) }
            saveResumePosition()
            (playerView.player as? InterstitialPlayer)?.clearSchedule()
            queue.advancedWithoutGap()
            historySource = queue.currentSource
            historyKey = queue.currentSource.flatMap { ResumeHistory.key(for: $0) }
        case .playedToEnd:
            if let key = historyKey { history.forget(key: key) }
            let goesOn = queue.playedToEnd()
            // Playing in the background and the queue is done: nothing left to keep Reel for.
            if inBackground, !goesOn { gtk_window_close(window.cast()) }
        case .time(let position, let duration):
            if let key = historyKey, let source = historySource, playerView.player.state.hasMedia {
                history.record(key: key, source: source, position: position, duration: duration)
                // A crash or power cut loses at most this much.
                if Date().timeIntervalSince(lastHistorySave) > 10 { saveResumePosition() }
            }
        case .mediaLoaded(let info):
            setTitle(info.displayTitle)
            sizeForMedia(info)
            if gtk_widget_get_visible(window) == 0 {
                presentWhenLoaded?.cancel()
                present()
            }
        case .stateChanged(_, let to):
            queue.stateChanged(to)
            if to != .playing { saveResumePosition() }
            let hasVideo = playerView.mediaInfo?.videoStream != nil
            inhibitor.set(to == .playing && hasVideo)
            if case .failed(let error) = to {
                if gtk_widget_get_visible(window) == 0 { present() }
                queue.failed(error)
            }
            if to == .closed || to == .idle { setTitle(nil) }
        case .speedChanged(let speed):
            if let speedAction { Actions.setState(speedAction, number: speed) }
            requestedSpeed = speed
        default:
            break
        }
    }

    private func setTitle(_ title: String?) {
        let text = title ?? "Reel"
        gtk_window_set_title(window.cast(), text == "Reel" ? "Reel" : "\(text) – Reel")
        gtk_label_set_text(titleLabel.cast(), text)
    }

    /// On the first open the window takes the picture's shape (sample aspect ratio and
    /// rotation applied) at its natural size, at most 70 % of the screen.
    private func sizeForMedia(_ info: MediaInfo) {
        guard !sizedForMedia, !isFullscreen, gtk_window_is_maximized(window.cast()) == 0,
              let video = info.videoStream, let w = video.width, let h = video.height, w > 0, h > 0 else { return }
        sizedForMedia = true
        var width = Double(w) * (video.sampleAspectRatio?.value ?? 1)
        var height = Double(h)
        if video.rotation == 90 || video.rotation == 270 { swap(&width, &height) }
        let (maxW, maxH) = screenLimit()
        // The header bar sits above the picture: the window is that much taller.
        var headerHeight: gint = 0
        if let header = gtk_window_get_titlebar(window.cast()), gtk_widget_get_visible(header) != 0, !isFullscreen {
            gtk_widget_measure(header, GTK_ORIENTATION_VERTICAL, -1, nil, &headerHeight, nil, nil)
        }
        let fit = min(maxW / width, (maxH - Double(headerHeight)) / height)
        // Small videos open larger (whole multiples stay crisp), so that the picture is
        // watchable and the controls have room: a 320×240 clip opens at 640×480.
        let enlarge = width < Self.smallestPictureWidth ? (Self.smallestPictureWidth / width).rounded(.up) : 1
        let scale = min(enlarge, fit)
        // The default size includes the client-side shadow around the window; add it so the
        // picture, not the window, gets the picture's size.
        gtk_widget_realize(window)
        var marginX = 0.0, marginY = 0.0
        gtk_native_get_surface_transform(OpaquePointer(window), &marginX, &marginY)
        gtk_window_set_default_size(window.cast(), gint((width * scale).rounded() + 2 * marginX),
                                    gint((height * scale).rounded() + 2 * marginY) + headerHeight)
    }

    static let smallestPictureWidth = 640.0

    private func screenLimit() -> (Double, Double) {
        guard let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display),
              g_list_model_get_n_items(monitors) > 0, let monitor = g_list_model_get_item(monitors, 0) else { return (1280, 720) }
        defer { g_object_unref(monitor.cast(to: GObject.self)) }
        var geometry = GdkRectangle()
        gdk_monitor_get_geometry(OpaquePointer(monitor), &geometry)
        return (Double(geometry.width) * 0.7, Double(geometry.height) * 0.7)
    }

    // MARK: Fullscreen

    public var isFullscreen: Bool { gtk_window_is_fullscreen(window.cast()) != 0 }

    public func toggleFullscreen() {
        if isFullscreen { gtk_window_unfullscreen(window.cast()) } else { gtk_window_fullscreen(window.cast()) }
    }

    // MARK: Actions and keys

    private func installActions() {
        let group = window.raw
        Actions.add(group, "open") { [weak self] in
            guard let self else { return }
            OpenDialogs.chooseFiles(parent: self.window) { [weak self] paths in self?.open(paths) }
        }
        Actions.add(group, "open-url") { [weak self] in
            guard let self else { return }
            OpenDialogs.askForURL(parent: self.window, cache: self.playerView.settings.streamCache) { [weak self] url in self?.open(url) }
        }
        Actions.add(group, "fullscreen") { [weak self] in self?.toggleFullscreen() }
        Actions.add(group, "toggle-pause") { [weak self] in self?.playerView.player.togglePause() }
        Actions.add(group, "toggle-info") { [weak self] in self?.toggleInfo() }
        Actions.add(group, "play-demo") { [weak self] in
            if let clip = DataDirectory.demoClip { self?.open(clip) }
        }
        Actions.add(group, "save-frame") { [weak self] in
            self?.saveFrame(withSubtitles: self?.playerView.settings.bool("save-picture-subtitles") ?? true)
        }
        Actions.add(group, "save-frame-plain") { [weak self] in self?.saveFrame(withSubtitles: false) }
        speedAction = Actions.addNumberChoice(group, "speed", initial: playerView.player.speed) { [weak self] speed in
            self?.requestedSpeed = speed
            self?.playerView.player.setSpeed(speed)
        }
        // A break in what is open: "CLIP@SECONDS" (0: before it). Remote-controllable.
        Actions.addWithString(group, "schedule-break") { [weak self] text in
            guard let self else { return }
            guard let breaks = self.playerView.player as? InterstitialPlayer,
                  let at = text.lastIndex(of: "@"), let seconds = Double(text[text.index(after: at)...]), seconds >= 0,
                  let clip = try? MediaSource(parsing: String(text[..<at])) else {
                self.notice.show("Cannot schedule a break from “\(text)”: give CLIP@SECONDS")
                return
            }
            breaks.schedule(clip, at: seconds)
        }
        // Saves the picture exactly as drawn (remote-controllable over D-Bus, for checks).
        Actions.addWithString(group, "save-picture") { [weak self] path in
            self?.playerView.movie.snapshot(to: path) { error in
                if let error { FileHandle.standardError.write(Data("reel: \(error)\n".utf8)) }
            }
        }
    }

    /// Ctrl+S: the frame on screen, at the video's own size (square pixels), as a PNG. The
    /// frame is taken when the key is pressed, so playing on while the dialog is up is fine.
    private func saveFrame(withSubtitles: Bool) {
        guard let frame = playerView.movie.shown else { return }
        let player = withSubtitles ? SubtitleController.engine(playerView.player) : nil
        let rotation = playerView.movie.rotation
        let info = playerView.mediaInfo
        let base = ((info?.sourceName).map { ($0 as NSString).deletingPathExtension } ?? "Reel")
            .replacingOccurrences(of: "/", with: "-")
        let time = TimeText.elapsed(frame.pts, reference: info?.duration).replacingOccurrences(of: ":", with: ".")
        OpenDialogs.choosePNGDestination(parent: window, suggestedName: "\(base) \(time).png") { path in
            // Converting and compressing a large frame takes a noticeable moment: not on the
            // main thread, where it would stall the picture and the controls.
            Thread.detachNewThread {
                do {
                    let png = try player.map { player in
                        try frame.pngData(rotation: rotation) { player.subtitleImage(at: frame.pts, width: $0, height: $1) }
                    } ?? frame.pngData(rotation: rotation)
                    try png.write(to: URL(fileURLWithPath: path.hasSuffix(".png") ? path : path + ".png"))
                } catch {
                    FileHandle.standardError.write(Data("reel: cannot save the picture to \(path): \(error)\n".utf8))
                }
            }
        }
    }

    private func liftSubtitles(_ controlsShown: Bool) {
        let picture = playerView.movie.pictureRect
        let controls = playerView.controlsHeight
        // Only the part of the controls over the picture counts (letterboxing may hold them).
        let viewHeight = Double(gtk_widget_get_height(playerView.movie.area))
        let overlap = max(0, controls - (viewHeight - picture.y - picture.height))
        subtitles?.lift = controlsShown && picture.height > 0 ? min(50, overlap / picture.height * 100) : 0
    }

    /// `[` and `]` step the speed down and up; Backspace returns to normal.
    func changeSpeed(faster: Bool?) {
        let next = faster.map { PlaybackSpeed.step(from: requestedSpeed, faster: $0) } ?? 1
        guard let next else { return }
        requestedSpeed = next
        playerView.player.setSpeed(next)
    }

    private func installKeys() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys.cast(), GTK_PHASE_CAPTURE)
        Signal.connectKey(keys.raw, "key-pressed") { [weak self] keyval, state in
            guard let self else { return false }
            if self.heldArrows.pressed(keyval, state) { return true }
            return KeyboardShortcuts(window: self).handle(keyval, state)
        }
        Signal.connectKeyReleased(keys.raw, "key-released") { [weak self] keyval, _ in
            self?.heldArrows.released(keyval)
        }
        gtk_widget_add_controller(window, keys.cast())
    }

    private func installHelpOverlay() {
        let shortcuts = UIBuilder("shortcuts")
        gtk_application_window_set_help_overlay(window.cast(), shortcuts.object("shortcuts-window").cast())
    }

    private func installDrop() {
        var types = [reel_type_file_list(), reel_type_string()]
        let target = gtk_drop_target_new(0, GDK_ACTION_COPY)!
        gtk_drop_target_set_gtypes(target, &types, gsize(types.count))
        Signal.connectDrop(target.raw) { [weak self] value in
            guard let self, let value else { return false }
            if g_type_check_value_holds(value, reel_type_file_list()) != 0 {
                // Several files (or a folder, or a playlist) become the queue.
                var names: [String] = []
                var node = g_value_get_boxed(value).map { UnsafeMutablePointer<GSList>(OpaquePointer($0)) }
                while let current = node {
                    if let data = current.pointee.data {
                        let file = OpaquePointer(data)
                        if let name = GString.take(g_file_get_path(file)) ?? GString.take(g_file_get_uri(file)) { names.append(name) }
                    }
                    node = current.pointee.next
                }
                guard !names.isEmpty else { return false }
                // Subtitle files dropped on playing media are added to it, not opened.
                if self.subtitles?.accepts(droppedPaths: names) == true { return true }
                self.open(names)
                return true
            }
            if let text = g_value_get_string(value).map({ String(cString: $0) }) {
                let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty && !$0.hasPrefix("#") }
                guard !lines.isEmpty else { return false }
                self.open(lines)
                return true
            }
            return false
        }
        gtk_widget_add_controller(window, target.cast())
    }

    func toggleInfo() {
        if infoCard == nil { infoCard = InfoCard(view: playerView) }
        infoCard?.toggle()
    }

    /// One frame back (the engine keeps the pictures of the current GOP, so repeats are quick).
    func stepBackward() { playerView.player.stepBackward() }
}
