import CGtk
import Foundation
import ReelEngine

/// The controls overlay: play/pause, hold-to-scan
/// rewind and fast-forward, the scrubber, elapsed and total/remaining time, volume and mute,
/// fullscreen. It drives playback only through `PlaybackController` and shows what the view's
/// `PlayerModel` holds, nothing of its own but what is drawn.
/// Threading: main thread only.
@MainActor
final class ControlsOverlay {
    let revealer: UnsafeMutablePointer<GtkWidget>
    let bar: UnsafeMutablePointer<GtkWidget>
    private let playButton: UnsafeMutablePointer<GtkWidget>
    var scrubber: UnsafeMutablePointer<GtkWidget> { scrubbing.widget }
    private let adjustment: UnsafeMutablePointer<GtkAdjustment>
    private var scrubbing: ScrubberControl!
    private let labels: TimeLabels
    private let volume: VolumeControl
    private let player: PlaybackController
    private let model: PlayerModel
    private let scanner: HoldToScan
    private var scanButtons: [UnsafeMutablePointer<GtkWidget>] = []
    /// Whether the bar is drawn for a break now (its look changes when a break starts or ends).
    private var drawnForBreak = false
    private var scrubberHeld = false
    private var popupsOpen = 0
    /// What of streamed media is cached, for the scrubber's fill level.
    private let bufferedRanges: BufferedRanges
    /// The A-B loop over the trough.
    private let loopBand: LoopSpanBand
    /// The loop's ends dragged on the scrubber.
    private var loopEnds: LoopEndDrag?

    /// Icons of the play/pause button; replaceable.
    var playIconName = "media-playback-start-symbolic" { didSet { updatePlayButton() } }
    var pauseIconName = "media-playback-pause-symbolic" { didSet { updatePlayButton() } }
    /// The scrubber is pressed or a menu of the bar is open (the visibility logic keeps the
    /// controls up meanwhile: hiding the bar would take its open menu with it).
    var scrubbingChanged: (@MainActor (Bool) -> Void)?
    /// Any input on the controls (keeps them up).
    var activity: (@MainActor () -> Void)?
    /// The held scrubber moved (`scrubPosition` says where and how fast).
    var scrubMoved: (@MainActor () -> Void)?

    init(builder: UIBuilder, player: PlaybackController, model: PlayerModel, settings: PlayerSettings, seeker: Seeker) {
        revealer = builder.widget("controls-revealer")
        bar = builder.widget("controls")
        playButton = builder.widget("play-button")
        bufferedRanges = BufferedRanges(area: builder.widget("buffered-ranges"), scrubber: builder.widget("scrubber"))
        loopBand = LoopSpanBand(area: builder.widget("loop-span"), scrubber: builder.widget("scrubber"))
        adjustment = builder.object("scrubber-adjustment").cast()
        labels = TimeLabels(builder: builder, settings: settings)
        volume = VolumeControl(builder: builder, player: player, settings: settings)
        self.player = player
        self.model = model
        scanner = HoldToScan(player: player, model: model, seeker: seeker)

        Signal.connect(playButton.raw, "clicked") { [weak self] in
            self?.player.togglePause()
            self?.activity?()
        }
        labels.activity = { [weak self] in self?.activity?() }
        volume.activity = { [weak self] in self?.activity?() }
        scanButtons = [builder.widget("rewind-button"), builder.widget("forward-button")]
        wireScanButton(scanButtons[0], forward: false)
        wireScanButton(scanButtons[1], forward: true)
        scrubbing = ScrubberControl(widget: builder.widget("scrubber"), adjustment: adjustment, bar: bar, player: player,
                                    model: model, seeker: seeker)
        scrubbing.moved = { [weak self] time in
            self?.showLabels(at: time)
            self?.scrubMoved?()
        }
        scrubbing.heldChanged = { [weak self] held in self?.setHeld(scrubber: held) }
        wirePopups()
        bufferedRanges.geometry = { [weak self] in self?.scrubbing.geometry() }
        loopBand.geometry = { [weak self] in self?.scrubbing.geometry() }
        loopEnds = LoopEndDrag(bar: bar, scrubber: builder.widget("scrubber"), player: player, model: model) { [unowned scrubbing] in
            scrubbing.geometry()
        }
        showAll()
    }

    // MARK: Following the model

    /// Draws what `change` changed of the model.
    func follow(_ change: PlayerModel.Change) {
        if change.contains(.state) { updatePlayButton() }
        if change.contains(.breakTime) { drawBreak() }
        if change.contains([.state, .timeline, .speed, .media, .breakTime]) { showTime() }
        if change.contains(.buffered) { showBuffered() }
        if change.contains([.loop, .timeline, .state]) { loopBand.show(model.loop, duration: duration) }
        if change.contains(.loop) { loopEnds?.follow(model.loop) }
        if change.contains(.sound) { volume.show(volume: model.sound.volume, muted: model.sound.isMuted) }
    }

    private func showAll() {
        updatePlayButton()
        drawBreak()
        showTime()
        showBuffered()
        loopBand.show(model.loop, duration: duration)
        volume.show(volume: model.sound.volume, muted: model.sound.isMuted)
    }

    /// Media to control: loaded, loading (its length may be known already) or waiting under a break.
    private var mediaOpen: Bool {
        model.hasMedia || model.state == .loading || model.state == .suspended
    }

    /// The media's length, when there is media to scrub.
    var duration: Double? { mediaOpen ? model.duration : nil }

    private func updatePlayButton() {
        // During a break the button pauses and plays the break.
        let playing = model.isPlaying
        gtk_button_set_icon_name(playButton.cast(), playing ? pauseIconName : playIconName)
        Accessibility.setLabel(playButton, playing ? tr("Pause") : tr("Play"))
        gtk_widget_set_tooltip_text(playButton, playing ? tr("Pause (Space)") : tr("Play (Space)"))
    }

    /// Host buttons beside the play button, in the bar.
    func addAroundPlayButton(before: UnsafeMutablePointer<GtkWidget>?, after: UnsafeMutablePointer<GtkWidget>?) {
        if let before { gtk_box_insert_child_after(bar.cast(), before, gtk_widget_get_prev_sibling(playButton)) }
        if let after { gtk_box_insert_child_after(bar.cast(), after, playButton) }
    }

    // MARK: Scanning

    private func wireScanButton(_ button: UnsafeMutablePointer<GtkWidget>, forward: Bool) {
        // A click gesture in the capture phase sees the press itself (a button's own "clicked"
        // comes only on release).
        let gesture = gtk_gesture_click_new()!
        gtk_event_controller_set_propagation_phase(gesture.cast(), GTK_PHASE_CAPTURE)
        Signal.connectPress(gesture.raw, "pressed") { [weak self] _, _, _ in
            self?.scanner.press(forward: forward, now: Clock.now)
            self?.activity?()
        }
        Signal.connectPress(gesture.raw, "released") { [weak self] _, _, _ in self?.scanner.release() }
        // "cancel" carries the event sequence: the one-pointer shape, not the bare one.
        Signal.connectPointer(gesture.raw, "cancel") { [weak self] _ in self?.scanner.release() }
        gtk_widget_add_controller(button, gesture.cast())
    }

    // MARK: Scrubber and time

    /// The time under `x` (the scrubber's coordinates), as a click or drag there seeks to it.
    func time(atX x: Double) -> Double { scrubbing.time(atX: x) }

    var isScrubbing: Bool { scrubbing.isScrubbing }

    /// While the scrubber is held: its position, the x of the thumb's centre there (the
    /// scrubber's coordinates; with fine scrubbing it is not the pointer's) and the speed.
    var scrubPosition: (time: Double, x: Double, speed: FineScrubbing.Speed)? {
        guard isScrubbing, let duration, duration > 0 else { return nil }
        let time = scrubbing.lastTime
        return (time, scrubbing.geometry().x(atFraction: time / duration), scrubbing.speed)
    }

    /// The scrubber's trough and slider as laid out now.
    func scrubberGeometry() -> ScrubberGeometry { scrubbing.geometry() }

    /// Asked on a click on the scrubber for a time to land on instead (`ScrubberControl.snapClick`).
    var snapClick: (@MainActor (Double) -> Double?)? {
        get { scrubbing.snapClick }
        set { scrubbing.snapClick = newValue }
    }

    /// Whether a point (the scrubber's coordinates) lies in the band that takes presses.
    func scrubberBand(containsX x: Double, y: Double) -> Bool { scrubbing.bandContains(x: x, y: y) }

    /// The scrubber and the labels at the model's time (the hand's while it holds the scrubber);
    /// a break shows its own time.
    private func showTime() {
        if let pause = model.breakTime {
            labels.showBreak(position: pause.position, length: pause.duration)
            if let length = pause.duration {
                gtk_adjustment_set_upper(adjustment, max(length, 0.001))
                scrubbing.setValue(min(pause.position, length))
            }
            return
        }
        let length = duration
        gtk_adjustment_set_upper(adjustment, max(length ?? 1, 0.001))
        gtk_widget_set_sensitive(scrubber, length == nil ? 0 : 1)
        guard !isScrubbing else { return }
        let shown = mediaOpen ? model.timeline.shown : 0
        scrubbing.setValue(shown)
        showLabels(at: shown)
    }

    private func showLabels(at position: Double) {
        labels.show(position: position, duration: duration, frameRate: mediaOpen ? model.frameRate : nil, speed: model.speed)
    }

    /// Re-reads the time options (a preference changed) and redraws the labels.
    func refreshLabels() {
        if isScrubbing { showLabels(at: scrubbing.lastTime) } else { showTime() }
    }

    private func showBuffered() {
        if mediaOpen, let progress = model.buffered { bufferedRanges.show(progress) } else { bufferedRanges.clear() }
    }

    /// A break's look: its own time on the scrubber, which cannot be moved, nor can the main
    /// item be scanned.
    private func drawBreak() {
        let on = model.inBreak
        guard on != drawnForBreak else { return }
        drawnForBreak = on
        for button in scanButtons { gtk_widget_set_sensitive(button, on ? 0 : 1) }
        // Translators: the position slider's name; "Break" while an ad break (a clip between parts) plays.
        Accessibility.setLabel(scrubber, on ? tr("Break") : tr("Position"))
        if on {
            gtk_widget_set_sensitive(scrubber, 0)
            gtk_widget_add_css_class(bar, "reel-break")
        } else {
            gtk_widget_remove_css_class(bar, "reel-break")
        }
    }

    private func setHeld(scrubber: Bool? = nil) {
        if let scrubber { scrubberHeld = scrubber }
        scrubbingChanged?(scrubberHeld || popupsOpen > 0)
    }

    /// The volume popover pops up from the bar.
    private func wirePopups() {
        let popups: [UnsafeMutablePointer<GtkWidget>?] = [volume.popup]
        for case let popup? in popups {
            Signal.connectPointer(popup.raw, "notify::visible") { [weak self] _ in
                guard let self else { return }
                self.popupsOpen += gtk_widget_get_visible(popup.cast()) != 0 ? 1 : -1
                self.popupsOpen = max(0, self.popupsOpen)
                self.setHeld()
            }
        }
    }
}
