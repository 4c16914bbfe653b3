import CGtk
import Foundation
import ReelEngine

/// The controls overlay (DBVideoPlayer + ASBPlayerScrubbing): play/pause, hold-to-scan
/// rewind and fast-forward, the scrubber, elapsed and total/remaining time, volume and mute,
/// fullscreen. It drives playback only through `PlaybackController` and follows the player
/// through the view's `PlayerModel`.
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
    private let scanner: HoldToScan
    private(set) var duration: Double?
    private var frameRate: Double?
    private var scanButtons: [UnsafeMutablePointer<GtkWidget>] = []
    /// A break (interstitial) is playing: its own time in the labels and on the scrubber,
    /// which cannot be moved, nor can the main item be scanned.
    private var inBreak = false
    private var scrubberHeld = false
    private var popupsOpen = 0
    /// Played to the end: the time reads the whole length until the player moves again (the
    /// last time the engine reports is its last picture's or sound's start, a moment before).
    private var playedThrough = false
    /// What of streamed media is cached, for the scrubber's fill level.
    private let bufferedRanges: BufferedRanges

    /// Icons of the play/pause button; replaceable (DBVideoPlayer's play and pause images).
    var playIconName = "media-playback-start-symbolic" { didSet { updatePlayButton() } }
    var pauseIconName = "media-playback-pause-symbolic" { didSet { updatePlayButton() } }
    /// The scrubber is pressed or a menu of the bar is open (the visibility logic keeps the
    /// controls up meanwhile: hiding the bar would take its open menu with it).
    var scrubbingChanged: (@MainActor (Bool) -> Void)?
    private var modelEvents: ObservationToken?
    /// Any input on the controls (keeps them up).
    var activity: (@MainActor () -> Void)?

    init(builder: UIBuilder, player: PlaybackController, settings: PlayerSettings) {
        revealer = builder.widget("controls-revealer")
        bar = builder.widget("controls")
        playButton = builder.widget("play-button")
        bufferedRanges = BufferedRanges(area: builder.widget("buffered-ranges"), scrubber: builder.widget("scrubber"))
        adjustment = builder.object("scrubber-adjustment").cast()
        labels = TimeLabels(builder: builder, settings: settings)
        volume = VolumeControl(builder: builder, player: player, settings: settings)
        self.player = player
        scanner = HoldToScan(player: player)

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
                                    duration: { [weak self] in self?.duration })
        scrubbing.moved = { [weak self] time in self?.updateLabels(position: time) }
        scrubbing.heldChanged = { [weak self] held in self?.setHeld(scrubber: held) }
        wirePopups()
        updatePlayButton()
        updateLabels(position: 0)
        bufferedRanges.geometry = { [weak self] in self?.scrubbing.geometry() }
    }

    // MARK: Play button

    private func updatePlayButton() {
        // During a break the button pauses and plays the break.
        let playing = player.state == .playing || player.state == .stalled || player.state == .suspended
        gtk_button_set_icon_name(playButton.cast(), playing ? pauseIconName : playIconName)
        let label = playing ? tr("Pause") : tr("Play")
        Accessibility.setLabel(playButton, label)
        gtk_widget_set_tooltip_text(playButton, playing ? tr("Pause (Space)") : tr("Play (Space)"))
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

    // MARK: Scrubber

    /// The time under `x` (the scrubber's coordinates), as a click or drag there seeks to it.
    func time(atX x: Double) -> Double { scrubbing.time(atX: x) }

    var isScrubbing: Bool { scrubbing.isScrubbing }

    private func setScrubberValue(_ value: Double) { scrubbing.setValue(value) }

    // MARK: From the player

    /// Follows the player through the view's model, told each event once the model has it.
    func follow(_ model: PlayerModel) {
        modelEvents = model.observeEvents { [weak self] event in self?.apply(event) }
    }

    private func apply(_ event: PlayerEvent) {
        switch event {
        case .stateChanged(_, let to):
            if to != .ended { playedThrough = false }
            updatePlayButton()
        case .playedToEnd:
            playedThrough = true
            if !inBreak, !isScrubbing, let duration { setScrubberValue(duration); updateLabels(position: duration) }
        case .durationKnown(let d):
            setDuration(d)
        case .mediaLoaded(let info):
            frameRate = info.videoStream?.frameRate
            if let d = info.duration { setDuration(d) }
        case .interstitialStarted:
            setBreak(true)
        case .interstitialProgress(let position, let length):
            showBreakTime(position, of: length)
        case .interstitialEnded:
            setBreak(false)
        case .time(let position, let d):
            if inBreak { break }
            if let d, d != duration { setDuration(d) }
            let shown = playedThrough ? (duration ?? position) : position
            if !isScrubbing { setScrubberValue(shown); updateLabels(position: shown) }

        case .seekCompleted(let position):
            playedThrough = false
            if !isScrubbing { setScrubberValue(position); updateLabels(position: position) }
        case .speedChanged:
            updateLabels(position: player.position)
        case .downloadProgress(let progress):
            bufferedRanges.show(progress)
        case .volumeChanged(let level, let muted):
            volume.show(volume: level, muted: muted)
        default:
            break
        }
    }

    private func setDuration(_ d: Double) {
        duration = d
        guard !inBreak else { return }
        gtk_adjustment_set_upper(adjustment, max(d, 0.001))
        gtk_widget_set_sensitive(scrubber, 1)
        updateLabels(position: player.position)
    }

    private func setBreak(_ on: Bool) {
        inBreak = on
        gtk_widget_set_sensitive(scrubber, on || duration == nil ? 0 : 1)
        for button in scanButtons { gtk_widget_set_sensitive(button, on ? 0 : 1) }
        // Translators: the position slider's name; "Break" while an ad break (a clip between parts) plays.
        Accessibility.setLabel(scrubber, on ? tr("Break") : tr("Position"))
        if on {
            gtk_widget_add_css_class(bar, "reel-break")
            showBreakTime(0, of: nil)
        } else {
            gtk_widget_remove_css_class(bar, "reel-break")
            gtk_adjustment_set_upper(adjustment, max(duration ?? 1, 0.001))
            setScrubberValue(player.position)
            updateLabels(position: player.position)
        }
    }

    /// The break's own time: how far in, and what is left of it.
    private func showBreakTime(_ position: Double, of length: Double?) {
        guard inBreak else { return }
        labels.showBreak(position: position, length: length)
        if let length {
            gtk_adjustment_set_upper(adjustment, max(length, 0.001))
            setScrubberValue(min(position, length))
        }
    }

    /// Media closed or failed: nothing to scrub.
    func reset() {
        bufferedRanges.clear()
        if inBreak { setBreak(false) }
        duration = nil
        frameRate = nil
        setScrubberValue(0)
        gtk_adjustment_set_upper(adjustment, 1)
        gtk_widget_set_sensitive(scrubber, 0)
        updateLabels(position: 0)
        updatePlayButton()
    }

    /// Re-reads the time options (a preference changed) and redraws the labels.
    func refreshLabels() { updateLabels(position: isScrubbing ? scrubbing.lastTime : player.position) }

    private func updateLabels(position: Double) {
        labels.show(position: position, duration: duration, frameRate: frameRate, speed: player.speed)
    }

    private func setHeld(scrubber: Bool? = nil) {
        if let scrubber { scrubberHeld = scrubber }
        scrubbingChanged?(scrubberHeld || popupsOpen > 0)
    }

    /// The volume slider pops up from the bar.
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
