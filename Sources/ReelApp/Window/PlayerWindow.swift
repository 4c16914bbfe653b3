import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// Reel's main window, libadwaita's: the player view fills it, and the header bar
/// (ui/window.ui) lies over the picture, fading with the controls; with the window's actions,
/// keys, drag-and-drop, fullscreen, and its title and size following the media.
/// Threading: main thread only.
@MainActor
public final class PlayerWindow: MediaPlayerWindow {
    public let window: UnsafeMutablePointer<GtkWidget>
    public let playerView: PlayerView
    private let builder: UIBuilder
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let application: OpaquePointer
    private let inhibitor: IdleInhibitor
    private var infoCard: InfoCard?
    var infoCardShown: Bool { infoCard?.isShown ?? false }
    var sizedForMedia = false
    private var presentWhenLoaded: Timer?
    /// Called as the window is about to close, before its player does.
    var closing: (@MainActor () -> Void)?
    var speedAction: OpaquePointer?
    /// The speed last asked for: quick key presses step from it, not from the engine's answer
    /// to the previous one, which may not have arrived yet.
    var requestedSpeed = 1.0
    /// The deinterlacing mode last asked for (the engine's answer comes at its next seek).
    var requestedDeinterlace = DeinterlaceMode.auto
    lazy var heldArrows = HeldArrowKeys(view: playerView)
    /// Subtitle menu, keys, drops and preferences (nil for a backend without subtitles).
    private(set) var subtitles: SubtitleController?
    /// What plays, what follows, where it was left, breaks and playing in the background.
    private(set) var session: PlaybackSession!
    /// What plays after what; next/previous; remembered across restarts.
    var queue: QueueController { session.queue }
    private let notice: Notice
    /// The header bar's main menu button (F10 opens it even while the header is faded out).
    var menuButton: UnsafeMutablePointer<GtkWidget>?
    /// The header bar over the picture's top.
    var headerBar: UnsafeMutablePointer<GtkWidget>?
    /// Turns, mirror, aspect, zoom, pan and black bars, kept per file.
    private(set) var picture: PictureControl?
    /// Contrast, brightness, gamma, saturation and hue, for the session.
    private(set) var colours: EqualizerControl?
    /// The picture's right-click menu, its wheel, the queue's previous and next buttons.
    private(set) var gestures: PictureGestures?
    /// The A-B loop's menu items, named for what they do next.
    private var loopMenu: LoopMenu?
    private var levelling: LoudnessLevellingSwitch?
    private var queuePanel: QueuePanel?
    /// The chapter list, made the first time it opens.
    var chapterList: ChapterList?
    /// The remote's CanGoNext and CanGoPrevious as last announced (they change with the chapter).
    var announcedRemoteSteps: [Bool] = []
    /// The desktop's media remote, once the app is on the session bus.
    var mpris: MPRISService? {
        didSet { mpris?.window = self }
    }
    /// What was played lately (the desktop's recent list) and its Open Recent menu.
    private(set) var recent: RecentHistory?
    private var recentMenu: RecentMenu?
    /// Audio ▸ Add Audio File… and sound files dropped on a video.
    private(set) var audioFiles: AudioFileControl?
    /// A web page's qualities.
    private var qualityMenu: QualityMenu?
    /// The player's model reaching the window's parts, in one place and order.
    private var binding: WindowBinding?

    public init(application: OpaquePointer, settings: PlayerSettings) {
        self.application = application
        builder = UIBuilder(.window)
        window = adw_application_window_new(application.cast())
        gtk_window_set_title(window.cast(), "Reel")
        gtk_window_set_default_size(window.cast(), 960, 540)
        gtk_window_set_icon_name(window.cast(), "io.github.reel.Reel")
        titleLabel = builder.widget("title-label")
        playerView = PlayerView(settings: settings)
        inhibitor = IdleInhibitor(application: application, window: window)
        notice = Notice()
        playerView.addNoticeOverlay(notice.overlay)
        // No title bar above the picture: the picture takes the whole window, and the header
        // bar lies over it, showing and fading with the controls (in a window as in fullscreen).
        adw_application_window_set_content(window.cast(), playerView.widget)
        let host = ViewSessionPlayer(view: playerView, window: self)
        session = PlaybackSession(player: host, model: playerView.model, window: host, settings: settings)
        installActions()
        installKeys()
        installDrop()
        installHelpOverlay()
        subtitles = SubtitleController(window: window, model: playerView.model, tracks: playerView.tracks, settings: settings,
                                       trackItems: OpaquePointer(builder.object("subtitle-track-items")),
                                       audioItems: OpaquePointer(builder.object("audio-track-items")))
        if let tracks = playerView.tracks {
            audioFiles = AudioFileControl(window: window, player: tracks, model: playerView.model)
            qualityMenu = QualityMenu(builder: builder, window: window, player: tracks)
        }
        subtitles?.redraw = { [weak self] in self?.playerView.movie.redraw() }
        subtitles?.say = { [weak self] text, sound in
            self?.playerView.billboard.show(text, icon: sound ? "audio-x-generic-symbolic" : "media-view-subtitles-symbolic")
        }
        subtitles?.warn = { [weak self] text in self?.notice.show(text, seconds: SubtitleController.noticeSeconds) }
        if let subtitles { playerView.movie.subtitles = { [weak subtitles] in subtitles?.image(at: $0, width: $1, height: $2) } }
        playerView.doubleClicked = { [weak self] in self?.toggleFullscreen() }
        Signal.connectIntInt(playerView.movie.area.raw, "resize") { [weak self] _, _ in
            guard let self else { return }
            self.liftSubtitles(self.playerView.model.controlsVisible)
        }
        binding = WindowBinding(window: self)
        queue.observe { [weak self] in
            self?.mpris?.refresh()
            self?.updateActionAvailability()
            self?.gestures?.followQueue(items: self?.queue.queue.items.count ?? 0)
        }
        let panel = QueuePanel(controller: queue)
        panel.chooseFiles = { [weak self] done in
            guard let self else { return }
            OpenDialogs.chooseFiles(parent: self.window, title: tr("Add to the Queue"), accept: tr("_Add"), done)
        }
        panel.choosePlaylist = { [weak self] done in
            guard let self else { return }
            OpenDialogs.choosePlaylistDestination(parent: self.window, done)
        }
        queuePanel = panel
        installHeader(builder, queueButton: panel.button)
        let picture = PictureControl(view: playerView) { [weak self] in
            self?.session.historyKey(for: $0) ?? ResumeHistory.key(for: $0)
        }
        picture.offersChanged = { [weak self] in self?.updateActionAvailability() }
        picture.installActions(window.raw)
        self.picture = picture
        gestures = PictureGestures(window: self, builder: builder)
        loopMenu = LoopMenu(builder: builder)
        let recent = RecentHistory(settings: settings)
        recentMenu = RecentMenu(builder: builder, window: window.raw, history: recent) { [weak self] in self?.open($0) }
        recent.observe { [weak self] in self?.showRecent() }
        self.recent = recent
        showRecent()
        let colours = EqualizerControl(view: playerView)
        colours.installActions(window.raw)
        // Both menus hold the Colours submenu; each needs sliders of its own.
        if let menuButton, let popover = gtk_menu_button_get_popover(menuButton.cast()) { colours.addPanel(to: popover) }
        if let popover = playerView.contextMenu { colours.addPanel(to: popover) }
        self.colours = colours
        levelling = LoudnessLevellingSwitch(view: playerView)
        levelling?.installActions(window.raw)
        Signal.connectPointer(window.raw, "notify::fullscreened") { [weak self] _ in
            guard let self else { return }
            self.playerView.isFullscreen = self.isFullscreen
            self.updateActionAvailability()
            self.gestures?.follow(playing: self.playerView.model.isPlaying, fullscreen: self.isFullscreen,
                                  deinterlace: self.requestedDeinterlace)
            // However it came about (a key, a double click, the remote, the window manager).
            self.mpris?.refresh()
        }
        Signal.connectReturning(window.raw, "close-request") { [weak self] in
            guard let self else { return false }
            // Keep playing in the background (a preference): the window goes, the sound stays,
            // and the media keys, MPRIS and opening Reel again bring the window back.
            if self.session.closeRequested() {
                gtk_widget_set_visible(self.window, 0)
                return true
            }
            self.closing?()
            self.inhibitor.set(false)
            self.playerView.player.close()
            return false
        }
        updateActionAvailability()
    }

    /// Shows the window again after it went to the background.
    public func present() { session.present() }

    /// Shows the window (the session's request).
    func show() { gtk_window_present(window.cast()) }

    /// Closes the window as its close button does.
    func close() { gtk_window_close(window.cast()) }

    func notify(_ text: String, actions: [NoticeAction], seconds: Double) {
        notice.show(text, actions: actions.map { ($0.label, $0.run) }, seconds: seconds)
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
        session.open(sources, start: start, paused: paused)
    }

    /// Saves where the film is and stops following the player (quitting).
    func finishResumeHistory() { session.finishResumeHistory() }

    /// Adds to the queue without interrupting what plays.
    public func enqueue(_ sources: [String]) { session.enqueue(sources) }

    /// Reopens the queue of the last run (paused on its current item); false when there is none.
    public func restoreQueue() -> Bool { session.restoreQueue() }

    /// An item of the queue is about to open: the window names it.
    func willOpen(_ source: MediaSource) {
        setTitle(source.displayName)
        subtitles?.willOpen(source)
    }

    /// An item of the queue opened. When the window is not shown yet it waits (briefly) for
    /// the media's size, so that it appears at the right size instead of jumping to it.
    func opened() {
        if gtk_widget_get_visible(window) == 0 {
            presentWhenLoaded = Timer.once(after: 0.3) { [weak self] in self?.present() }
        }
    }

    // MARK: Following the player

    /// The window's own part of a change of the player's model (`WindowBinding` calls it in
    /// its turn): the title, the size, being shown, the idle inhibitor, the speed menu, the
    /// subtitles' lift over the controls, warnings.
    func follow(_ change: PlayerModel.Change) {
        let model = playerView.model
        switch change.moment {
        case .loaded(let info):
            if let source = model.source, !model.inBreak { recent?.add(source, title: info.title) }
            setTitle(info.displayTitle)
            sizeForMedia(info)
            if gtk_widget_get_visible(window) == 0 {
                presentWhenLoaded?.cancel()
                present()
            }
        case .warning(let warning):
            FileHandle.standardError.write(Data("reel: \(warning.description)\n".utf8))
            notice.queue(warning.message, seconds: Notice.warningSeconds)
        default:
            break
        }
        if change.contains([.state, .media]) { inhibitor.set(model.state == .playing && model.hasVideo) }
        if change.contains(.state) {
            gestures?.follow(playing: model.isPlaying, fullscreen: isFullscreen, deinterlace: requestedDeinterlace)
            if case .failed = model.state, gtk_widget_get_visible(window) == 0 { present() }
            if model.state == .closed || model.state == .idle { setTitle(nil) }
        }
        if change.contains(.speed) {
            if let speedAction { Actions.setState(speedAction, number: model.speed) }
            requestedSpeed = model.speed
        }
        if change.contains([.state, .media, .subtitles, .breakTime]) { updateActionAvailability() }
        if change.contains(.loop) { loopMenu?.follow(model.loop) }
        if change.contains([.media, .state]) { qualityMenu?.follow(model.hasMedia ? model.mediaInfo : nil) }
        // Subtitles move up over the controls while they show, as mpv's do over its OSC (and
        // again when the picture's place changes under them: a new picture, a new size).
        if change.contains([.controls, .media]) { liftSubtitles(model.controlsVisible) }
        followChapters(change)
    }

    private func setTitle(_ title: String?) {
        let text = title ?? "Reel"
        // Translators: the window title; %@ is the name of what plays.
        gtk_window_set_title(window.cast(), text == "Reel" ? "Reel" : String(format: tr("%@ – Reel"), text))
        gtk_label_set_text(titleLabel.cast(), text)
    }

    // MARK: Fullscreen

    public var isFullscreen: Bool { gtk_window_is_fullscreen(window.cast()) != 0 }

    public func toggleFullscreen() { setFullscreen(!isFullscreen) }

    public func setFullscreen(_ on: Bool) {
        if on { gtk_window_fullscreen(window.cast()) } else { gtk_window_unfullscreen(window.cast()) }
    }

    /// A window already shown comes to the front (another launch handed it files); one not
    /// shown yet waits for the media's size (`opened`).
    func bringForward() {
        if gtk_widget_get_visible(window) != 0 { show() }
    }

    private func liftSubtitles(_ controlsShown: Bool) {
        let picture = playerView.movie.pictureRect
        let controls = playerView.controlsHeight
        // Only the part of the controls over the picture counts (letterboxing may hold them).
        let viewHeight = Double(gtk_widget_get_height(playerView.movie.area))
        let overlap = max(0, controls - (viewHeight - picture.y - picture.height))
        subtitles?.lift = controlsShown && picture.height > 0 ? min(50, overlap / picture.height * 100) : 0
    }

    func toggleInfo() {
        if infoCard == nil { infoCard = InfoCard(view: playerView, below: { [weak self] in self?.headerHeight ?? 0 }) }
        infoCard?.toggle()
        updateActionAvailability()
    }

    /// Go to Time (Ctrl+J): asks for a time, frame or share of the length and seeks there exactly.
    func goToTime() {
        let model = playerView.model
        guard model.hasMedia else { return }
        GoToTimeDialog.ask(parent: window, position: model.position, length: model.duration,
                           frameRate: model.mediaInfo?.videoStream?.frameRate) { [weak self] seconds in
            self?.playerView.seek(to: seconds, mode: .exact)
        }
    }

    /// One frame back (the engine keeps the pictures of the current GOP, so repeats are quick).
    func stepBackward() { playerView.player.stepBackward() }
}
