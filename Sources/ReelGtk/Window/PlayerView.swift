import CGtk
import Foundation
import ReelEngine

/// The embeddable player: the movie surface (GL, or cairo where GL is software), the auxiliary-view slot, the status page and
/// spinner, and the controls overlay, in one GtkOverlay built from `ui/player-view.ui`, with the
/// host's fading overlays (a header bar) and notices on top, in the one order player-view.ui
/// lists. Any app can put `widget` in any container at any size. Playback goes through a
/// `PlaybackController` (the engine's `Player` unless the host supplies another backend).
/// Threading: main thread only; engine events hop here through `MainContext`.
@MainActor
public final class PlayerView {
    public let widget: UnsafeMutablePointer<GtkWidget>
    public let player: PlaybackController
    /// What the player can do beyond playing, when it can (looked up once, here): breaks,
    /// subtitle and sound tracks.
    public let breaks: BreakScheduling?
    public let tracks: TrackSelection?
    /// What is done to the pictures (deinterlacing), when the player does it.
    public let pictures: PictureProcessing?
    public let settings: PlayerSettings
    /// Host widgets over the picture, placed by fractions of it.
    public let auxiliarySlot: AuxiliarySlot
    /// What a key just changed, for a moment over the picture.
    public let billboard: Billboard
    public let movie: MovieView
    let controls: ControlsOverlay
    /// The hover preview above the scrubber, and the chapter marks on it.
    let preview: ScrubberPreview
    let chapterMarks: ChapterMarks
    /// The host's widgets that show and fade with the controls (the app's header bar).
    let fadingOverlays: FadingOverlays
    /// The host's notices (toasts), over everything, below the header bar.
    let notices: NoticeLayer
    private let status: StatusPage
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let builder: UIBuilder
    var visibility = ControlsVisibility()
    var hideTimer: Timer?
    private var following: ObservationToken?
    private var spinnerTimer: Timer?
    var tapTimer: Timer?
    /// The host's menu over the picture (a right click), once it gave one.
    public internal(set) var contextMenu: UnsafeMutablePointer<GtkWidget>?

    /// What the view shows (state, what is open, where it is, tracks, volume, whether the
    /// controls are up), for anyone to observe: the player's events become state there, and
    /// only there. The view's own parts follow it first; whoever embeds the view after.
    public let model = PlayerModel()
    /// A double click on the picture (the window toggles fullscreen).
    public var doubleClicked: (@MainActor () -> Void)?
    /// A picture reached the screen for the first time since the last open.
    public var firstPictureShown: (@MainActor () -> Void)?
    /// In fullscreen the pointer hides with the controls.
    public var isFullscreen = false { didSet { applyVisibility() } }

    /// Events cross from the engine's control thread to the main thread through this relay.
    private final class Relay: @unchecked Sendable {
        // Safe: `view` is written once on the main thread before any event, then read only
        // inside MainContext.async blocks, which run on the main thread.
        weak var view: PlayerView?
    }

    public init(settings: PlayerSettings,
                makePlayer: ((@escaping @Sendable (PlayerEvent) -> Void) -> PlaybackController)? = nil) {
        let relay = Relay()
        let sink: @Sendable (PlayerEvent) -> Void = { event in
            MainContext.async { relay.view?.model.apply(event) }
        }
        let cachePreference = StreamCachePreference(settings.streamCache)
        self.cachePreference = cachePreference
        var configuration = PlayerConfiguration()
        configuration.streamCacheProvider = { cachePreference.current }
        if let height = ScreenHeight.tallest() { configuration.webPages.maxHeight = height }
        // Breaks (interstitials) can be scheduled into whatever plays (the schedule-break action).
        player = makePlayer?(sink) ?? InterstitialPlayer(configuration: configuration, events: sink)
        breaks = player as? BreakScheduling
        tracks = player as? TrackSelection
        pictures = player as? PictureProcessing
        self.settings = settings
        // libadwaita's widgets (the status page) need it started; an AdwApplication has, a
        // host with a plain GtkApplication may not have (starting it again does nothing).
        adw_init()
        builder = UIBuilder(.playerView)
        widget = builder.widget("player-view")
        movie = MovieView(output: VideoOutput.current(preference: settings.videoOutput),
                          glArea: builder.widget("movie"), drawingArea: builder.widget("movie-software"), player: player)
        if movie.output.path == .software { gtk_overlay_set_child(widget.cast(), movie.area) }
        controls = ControlsOverlay(builder: builder, player: player, model: model, settings: settings,
                                   seeker: Seeker(player: player, model: model))
        status = StatusPage(builder: builder)
        spinner = builder.widget("spinner")
        auxiliarySlot = AuxiliarySlot(overlay: widget, below: builder.widget("status-page"))
        billboard = Billboard(builder: builder)
        chapterMarks = ChapterMarks(scale: controls.scrubber)
        preview = ScrubberPreview(overlay: widget, controls: controls, chapters: chapterMarks, settings: settings)
        let prefetch = ClickPrefetch(player: player)
        preview.hovered = { prefetch.hover(at: $0) }
        let fading = FadingOverlays(overlay: widget)
        fadingOverlays = fading
        notices = NoticeLayer(overlay: widget) { fading.topHeight }
        relay.view = self
        following = model.observe { [weak self] change in self?.follow(change) }
        movie.failed = { [weak self] message in self?.showFailure(.internalError(message)) }
        movie.pictureDrawn = { [weak self] _ in
            guard let self, !self.firstPictureReported else { return }
            self.firstPictureReported = true
            self.firstPictureShown?()
        }
        wireVisibility()
        wireChapterClicks()
        applySettings()
        settings.observe { [weak self] key in self?.settingChanged(key) }
        status.showWelcome(demoAvailable: DataDirectory.demoClip != nil)
    }

    /// The empty window lists these under its buttons (what was played lately).
    public func showRecent(_ rows: [RecentRow], open: @escaping @MainActor (String) -> Void) {
        status.recent.open = open
        status.showRecent(rows)
    }

    private var firstPictureReported = false
    let cachePreference: StreamCachePreference
    private lazy var audioCard = AudioCard(view: self)
    /// Sound without a picture: the controls stay up (there is nothing for them to cover).
    var soundOnly = false

    // MARK: Opening

    /// Opens a path or URL; `start` seeks there first, `paused` overrides autoplay.
    public func open(_ source: String, start: Double? = nil, paused: Bool = false) {
        guard let parsed = try? MediaSource(parsing: source) else {
            // Not something Reel opens: the player says why, as for any failed open.
            startOpening(named: source, source: nil)
            player.open(source)
            return
        }
        open(parsed, start: start, paused: paused)
    }

    /// Opens a source parsed once by whoever holds it (a queue); `start` seeks there first,
    /// `paused` overrides autoplay.
    public func open(_ source: MediaSource, start: Double? = nil, paused: Bool = false) {
        startOpening(named: source.displayName, source: source)
        player.open(source)
        if let start { seek(to: start) }
        if settings.autoplay && !paused { player.play() }
    }

    /// What belonged to the media before goes.
    private func startOpening(named name: String, source: MediaSource?) {
        model.opening(name, source: source)
        firstPictureReported = false
        movie.clear()
        preview.mediaClosed()
        audioCard.update(for: nil)
        soundOnly = false
        applySettings()
        status.hide()
    }

    // MARK: Seeking

    /// Seeks to `seconds` (within the media), remembered in the model as asked for.
    public func seek(to seconds: Double, mode: SeekMode = .exact) { seeker.seek(to: seconds, mode: mode) }

    /// Seeks `delta` seconds from where playback is (or from a seek that has not landed yet).
    public func seek(by delta: Double) { seeker.seek(by: delta) }

    /// What seeks for the view's parts and its host.
    public var seeker: Seeker { Seeker(player: player, model: model) }

    // MARK: Following the model

    /// The view's parts follow each change of the model, here and in this order: the view
    /// (spinner, status page, surface, visibility), then the controls.
    private func follow(_ change: PlayerModel.Change) {
        if change.contains(.state) { stateChanged(model.state) }
        if change.contains(.shape) {
            movie.shape = model.shape
            preview.transform = model.shape.transform
        }
        if change.contains(.equalizer) { movie.equalizer = model.equalizer }
        switch change.moment {
        case .loaded(let info):
            mediaLoaded(info)
        case .nextItemStarted:
            // The next item took over without a gap: what belongs to an item starts over, and
            // the picture stays (its first frame is already there).
            firstPictureReported = false
            preview.mediaClosed()
        case .pictureChanged:
            movie.refresh()
        case .seekRequested(let target):
            showSeek(at: target, asked: true)
        case .landed(let position):
            if billboard.showsSeek { showSeek(at: position, asked: false) }
        default:
            break
        }
        if change.contains([.state, .timeline, .media]) { followPause() }
        controls.follow(change)
    }

    private func mediaLoaded(_ info: MediaInfo) {
        audioCard.update(for: info)
        soundOnly = info.videoStream == nil
        applySettings()
        if soundOnly { visibility.show(now: Clock.now); applyVisibility() }
        movie.rotation = info.videoStream?.rotation ?? 0
        updateTimeObserver()
        preview.mediaLoaded(info)
    }

    private func stateChanged(_ state: PlayerState) {
        // A break (interstitial) plays in the main item's place, on the same surface.
        movie.isPlaying = state == .playing || state == .suspended
        switch state {
        case .loading:
            showSpinner(after: 0.4)
        case .stalled:
            showSpinner(after: 0.5)
        case .ready, .playing, .suspended:
            hideSpinner()
            status.hide()
        case .ended:
            hideSpinner()
            visibility.show(now: Clock.now)
            applyVisibility()
        case .failed(let error):
            showFailure(error)
        case .idle, .closed:
            hideSpinner()
            movie.clear()
            preview.mediaClosed()
            audioCard.update(for: nil)
            status.showWelcome(demoAvailable: DataDirectory.demoClip != nil)
        }
        // Media coming or going changes what shows (overlays stay while there is none).
        applyVisibility()
    }

    private func showFailure(_ error: PlayerError) {
        hideSpinner()
        audioCard.update(for: nil)
        movie.clear()
        preview.mediaClosed()
        visibility.hide()
        applyVisibility()
        status.showError(error, source: model.sourceName ?? tr("this media"))
    }

    private func showSpinner(after delay: Double) {
        spinnerTimer?.cancel()
        // A short delay: a spinner that flashes for a few milliseconds is worse than none.
        spinnerTimer = Timer.once(after: delay) { [weak self] in
            guard let self, self.model.state == .loading || self.model.state == .stalled else { return }
            gtk_widget_set_visible(self.spinner, 1)
            gtk_spinner_start(self.spinner.cast())
        }
    }

    private func hideSpinner() {
        spinnerTimer?.cancel()
        spinnerTimer = nil
        gtk_spinner_stop(spinner.cast())
        gtk_widget_set_visible(spinner, 0)
    }

    // MARK: The host's widgets over the picture

    /// Lays a widget of the host over the picture, above the player's own overlays, showing and
    /// fading with the controls (Clapper's fading overlays): a header bar over the picture. It is
    /// placed by its own halign and valign; the pointer over it and its popovers open (those it
    /// holds when added) keep the controls up, and it stays while no media is open.
    public func addFadingOverlay(_ child: UnsafeMutablePointer<GtkWidget>) {
        fadingOverlays.add(child, below: notices.bottom)
        applyVisibility()
    }

    /// Lays a widget of the host over everything of the view: its notices (an AdwToastOverlay
    /// without a child, whose toasts show there). It lies at the top edge below the fading
    /// overlays there (the header bar), centred, at its natural size, so it covers neither the
    /// controls nor the subtitles and takes no click meant for them.
    public func addNoticeOverlay(_ child: UnsafeMutablePointer<GtkWidget>) {
        notices.add(child)
    }

    /// Lays buttons of the host into the controls bar, just before and just after the play
    /// button (a queue's previous and next); they show and hide as the host sets them.
    public func addAroundPlayButton(before: UnsafeMutablePointer<GtkWidget>?, after: UnsafeMutablePointer<GtkWidget>?) {
        controls.addAroundPlayButton(before: before, after: after)
    }

    /// The height the controls bar takes at the bottom of the view (with its margin), as it is
    /// laid out when shown: measured, so that it is known the moment they come up, before the
    /// revealer has been laid out (the controls shown at a paused first picture).
    public var controlsHeight: Double {
        var height: gint = 0
        gtk_widget_measure(controls.bar, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width(widget), nil, &height, nil, nil)
        return Double(height)
    }
}
