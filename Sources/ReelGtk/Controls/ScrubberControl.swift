import CGtk
import Foundation
import ReelEngine

/// The scrubber as a person uses it: a press anywhere on it seeks exactly there and a drag
/// follows the hand, pausing while held and playing on after if it was playing; moving the
/// hand away from it vertically while it is held slows the drag (`FineScrubbing`). The keyboard
/// still reaches the range. The player is told through `PlaybackController`'s scrub calls,
/// which keep only the newest position; what is open and playing is the model's.
/// Threading: main thread only.
@MainActor
final class ScrubberControl {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let bar: UnsafeMutablePointer<GtkWidget>
    private let adjustment: UnsafeMutablePointer<GtkAdjustment>
    private let player: PlaybackController
    private let model: PlayerModel
    private let seeker: Seeker
    private(set) var isScrubbing = false
    /// Where the last drag went (a cancelled drag ends there).
    private(set) var lastTime = 0.0
    /// The drag's position and speed while held.
    private var fine: FineScrubbing?
    /// The speed of the drag held now (full when none is).
    var speed: FineScrubbing.Speed { fine?.speed ?? .full }
    private var wasPlaying = false
    private var settingValue = false
    /// The scrubber moved under the hand to this time (the labels follow).
    var moved: (@MainActor (Double) -> Void)?
    /// The scrubber was pressed (true) or let go.
    var heldChanged: (@MainActor (Bool) -> Void)?

    /// Presses on `bar` within a few pixels of the scrubber are the scrubber's.
    init(widget: UnsafeMutablePointer<GtkWidget>, adjustment: UnsafeMutablePointer<GtkAdjustment>,
         bar: UnsafeMutablePointer<GtkWidget>, player: PlaybackController, model: PlayerModel, seeker: Seeker) {
        self.widget = widget
        self.adjustment = adjustment
        self.bar = bar
        self.player = player
        self.model = model
        self.seeker = seeker
        wire()
    }

    /// Shows `value` without seeking to it.
    func setValue(_ value: Double) {
        settingValue = true
        gtk_adjustment_set_value(adjustment, value)
        settingValue = false
    }

    private func wire() {
        // The range itself takes no pointer input: its click handling depends on
        // gtk-primary-button-warps-slider and pages with an autoscroll timer. Presses over it
        // are handled by this gesture on the bar instead, so a click lands exactly under the
        // pointer and a drag follows it. The keyboard still reaches the range.
        gtk_widget_set_can_target(widget, 0)
        let drag = gtk_gesture_drag_new()!
        var startX = 0.0, startY = 0.0
        Signal.connectPoint(drag.raw, "drag-begin") { [weak self] x, y in
            guard let self else { return }
            var sx = 0.0, sy = 0.0
            gtk_widget_translate_coordinates(self.bar, self.widget, x, y, &sx, &sy)
            guard self.bandContains(x: sx, y: sy), self.canScrub else {
                gtk_gesture_set_state(drag, GTK_EVENT_SEQUENCE_DENIED)
                return
            }
            gtk_gesture_set_state(drag, GTK_EVENT_SEQUENCE_CLAIMED)
            (startX, startY) = (sx, sy)
            self.beginScrub(atX: sx)
        }
        Signal.connectPoint(drag.raw, "drag-update") { [weak self] dx, dy in
            self?.moveScrub(toX: startX + dx, y: startY + dy)
        }
        Signal.connectPoint(drag.raw, "drag-end") { [weak self] dx, dy in
            self?.endScrub(atX: startX + dx, y: startY + dy)
        }
        Signal.connectPointer(drag.raw, "cancel") { [weak self] _ in self?.endScrub(atX: nil, y: 0) }
        gtk_widget_add_controller(bar, drag.cast())
        // Keyboard changes (arrow keys on a focused scrubber) seek too.
        Signal.connectChangeValue(widget.raw) { [weak self] value in
            guard let self, !self.isScrubbing, !self.settingValue else { return false }
            self.seeker.seek(to: value)
            return false
        }
    }

    /// Whether a point (the scrubber's coordinates) is the scrubber's: over it, or a few pixels
    /// above or below it. Its ends take half a pixel more: coordinates translated from the bar
    /// come out a hair off whole pixels, and the last pixel is still the end.
    func bandContains(x: Double, y: Double) -> Bool {
        x >= -0.5 && x <= Double(gtk_widget_get_width(widget)) + 0.5
            && y >= -4 && y <= Double(gtk_widget_get_height(widget)) + 4
    }

    /// The time under `x` (the scrubber's coordinates), as a click or drag there seeks to it.
    func time(atX x: Double) -> Double {
        geometry().time(atX: x, duration: model.duration ?? 0)
    }

    /// The trough and the slider as GTK laid them out now, in the scrubber's coordinates.
    func geometry() -> ScrubberGeometry {
        var rect = GdkRectangle()
        gtk_range_get_range_rect(widget.cast(), &rect)
        return ScrubberGeometry(troughX: Double(rect.x), troughWidth: Double(rect.width), sliderLength: sliderTravelLength())
    }

    /// The length the thumb takes from the trough, as GtkRange lays it out: the slider node's
    /// size with its CSS margins (ours are negative, so the thumb overhangs the trough ends).
    /// gtk_range_get_slider_range does not report it in GTK 4, so the node is measured.
    private func sliderTravelLength() -> Double {
        guard let slider = Self.descendant(of: widget, cssName: "slider") else { return 0 }
        var minimum: gint = 0
        gtk_widget_measure(slider, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
        return Double(max(0, minimum))
    }

    private static func descendant(of widget: UnsafeMutablePointer<GtkWidget>, cssName: String) -> UnsafeMutablePointer<GtkWidget>? {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if String(cString: gtk_widget_get_css_name(current)) == cssName { return current }
            if let found = descendant(of: current, cssName: cssName) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    private func beginScrub(atX x: Double) {
        guard canScrub else { return }
        isScrubbing = true
        fine = FineScrubbing(pressAtX: x, geometry: geometry(), duration: model.duration ?? 0)
        wasPlaying = model.state == .playing || model.state == .stalled
        player.pause()
        heldChanged?(true)
        moveScrub(toX: x, y: 0)
    }

    /// How far `y` (the scrubber's coordinates) lies above or below the scrubber.
    private func distance(y: Double) -> Double {
        y < 0 ? -y : max(0, y - Double(gtk_widget_get_height(widget)))
    }

    /// Loaded media of a known length, and no break in its place.
    private var canScrub: Bool { model.hasMedia && model.duration != nil && !model.inBreak }

    private func moveScrub(toX x: Double, y: Double) {
        guard isScrubbing, fine != nil else { return }
        let t = fine!.move(toX: x, distance: distance(y: y))
        lastTime = t
        setValue(t)
        moved?(t)
        // The engine shows what it can fastest and keeps only the newest position.
        player.scrub(to: t)
    }

    private func endScrub(atX x: Double?, y: Double) {
        guard isScrubbing else { return }
        let t = x.flatMap { fine?.move(toX: $0, distance: distance(y: y)) } ?? lastTime
        isScrubbing = false
        fine = nil
        lastTime = t
        setValue(t)
        moved?(t)
        player.endScrub(at: t)
        if wasPlaying { player.play() }
        heldChanged?(false)
    }
}
