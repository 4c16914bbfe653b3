/// When the controls overlay shows and hides: how long they stay after the last input, whether
/// a tap shows and hides them, whether they never hide. Pure logic on a clock the caller passes in, so
/// the view only applies its answers and tests can run it without GTK.
///
/// - Pointer motion shows the controls; motion that does not move the pointer (the synthetic
///   motion a window gets when it appears under a still pointer, e.g. launched from the
///   keyboard) does not.
/// - A tap (click) on the picture toggles them, when tapping is enabled.
/// - They hide `displayDuration` seconds after the last input, never while the pointer is over
///   them or the scrubber is held, never when `neverHide` is set.
/// - A popover (a menu) opening from them shows them, and they stay while it is open: hiding
///   them would leave the menu hanging from nothing.
/// - Paused (a pause, the end of the media, opened paused) they come up and stay, as in
///   Showtime and Clapper: a still picture with nothing over it looks frozen. A tap still hides
///   them (to look at the picture); `hideWhilePaused` (a preference) lets them fade as always.
/// - The overlays that fade with the bar (a header bar over the picture) follow the same
///   answer, except that they stay while no media is open: the bar has nothing to control
///   then, and they hold the way to open something.
///
/// Threading: a value type; used on the main thread.
public struct ControlsVisibility: Sendable, Equatable {
    /// 2 s by default: the anchors' users find 3 s too long (Clapper #544: controls cover the
    /// picture after a glance) and 0.5 s too short (mpv's OSC fades before a hand reaches the
    /// mouse); Showtime's 2 s is the one they do not complain about.
    public static let defaultDisplayDuration = 2.0

    public var displayDuration = ControlsVisibility.defaultDisplayDuration
    public var displayOnTap = true
    public var neverHide = false {
        didSet { if neverHide { visible = true; hideAt = nil } }
    }
    /// Paused, they fade as while playing (a preference; off: they stay up while paused).
    public var hideWhilePaused = false {
        didSet { if !hideWhilePaused && paused { visible = true; hideAt = nil } }
    }

    public private(set) var visible = false
    /// When the controls will hide if nothing happens (nil: not scheduled).
    public private(set) var hideAt: Double?
    /// Media is open (loading, playing, paused, ended).
    public var hasMedia = false
    /// Playback is paused by the person (not by a scan), or has ended.
    public private(set) var paused = false

    /// The controls bar shows.
    public var barShown: Bool { visible && hasMedia }
    /// The overlays that fade with the bar show.
    public var overlaysShown: Bool { visible || !hasMedia }

    /// How many of the regions that hold the controls up (the bar, a header) are under the
    /// pointer: each reports its own entering and leaving.
    private var regionsUnderPointer = 0
    private var openPopovers = 0
    private var scrubbing = false
    private var lastPointer: (x: Double, y: Double)?

    public init(displayDuration: Double = ControlsVisibility.defaultDisplayDuration,
                displayOnTap: Bool = true, neverHide: Bool = false) {
        self.displayDuration = displayDuration
        self.displayOnTap = displayOnTap
        self.neverHide = neverHide
        if neverHide { visible = true }
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.visible == b.visible && a.hideAt == b.hideAt && a.displayDuration == b.displayDuration
            && a.displayOnTap == b.displayOnTap && a.neverHide == b.neverHide && a.hasMedia == b.hasMedia
            && a.paused == b.paused && a.hideWhilePaused == b.hideWhilePaused
    }

    /// The pointer moved over the player (widget coordinates).
    public mutating func pointerMoved(x: Double, y: Double, now: Double) {
        defer { lastPointer = (x, y) }
        // Motion events that do not move the pointer are not a person reaching for the mouse.
        if let last = lastPointer, abs(last.x - x) < 1, abs(last.y - y) < 1 { return }
        if lastPointer == nil { return }   // the first report only says where the pointer is
        show(now: now)
    }

    /// The pointer left the player: nothing to track until it comes back.
    public mutating func pointerLeft() { lastPointer = nil }

    /// A click on the picture.
    public mutating func tapped(now: Double) {
        guard displayOnTap else { return }
        if visible && !neverHide { hide() } else { show(now: now) }
    }

    /// Shows them for the display duration (input on the controls themselves, media ended…).
    public mutating func show(now: Double) {
        visible = true
        scheduleHide(now: now)
    }

    /// The pointer entered or left one region of the controls (the bar, or an overlay that
    /// fades with it); they stay while it is over any.
    public mutating func pointerOverControls(_ over: Bool, now: Double) {
        regionsUnderPointer = max(0, regionsUnderPointer + (over ? 1 : -1))
        if over { show(now: now) } else { scheduleHide(now: now) }
    }

    /// A popover of the controls opened or closed.
    public mutating func popover(_ open: Bool, now: Double) {
        openPopovers = max(0, openPopovers + (open ? 1 : -1))
        if open { show(now: now) } else { scheduleHide(now: now) }
    }

    public mutating func scrubbing(_ held: Bool, now: Double) {
        scrubbing = held
        if held { show(now: now) } else { scheduleHide(now: now) }
    }

    /// Playback paused (or ended), or plays again: paused they come up and stay (unless
    /// `hideWhilePaused`); playing again they fade after the display duration.
    public mutating func playbackPaused(_ on: Bool, now: Double) {
        guard on != paused else { return }
        paused = on
        if on && !hideWhilePaused {
            visible = true
            hideAt = nil
        } else if visible {
            scheduleHide(now: now)
        }
    }

    /// Time passes: hides when the deadline has come and nothing holds them up. Returns true
    /// when the visibility changed.
    @discardableResult
    public mutating func tick(now: Double) -> Bool {
        guard visible, let deadline = hideAt, now >= deadline else { return false }
        if isHeld || neverHide { hideAt = nil; return false }
        hide()
        return true
    }

    public mutating func hide() {
        guard !neverHide else { return }
        visible = false
        hideAt = nil
    }

    /// Something the person is using, or a pause, keeps them up.
    private var isHeld: Bool {
        regionsUnderPointer > 0 || scrubbing || openPopovers > 0 || (paused && !hideWhilePaused)
    }

    private mutating func scheduleHide(now: Double) {
        hideAt = neverHide || isHeld ? nil : now + displayDuration
    }
}
