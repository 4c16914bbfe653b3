import CGtk
import ReelEngine

/// The A-B loop's ends dragged on the scrubber: a press within a few pixels of the band's
/// start or end takes the press from the scrubber (its own drag, on the same bar, runs after
/// this one, which listens in the capture phase) and moves that end with the pointer; any other
/// press is left to the scrubber. Each move is a new span for the player, which keeps the start
/// it prepared while only the end moves.
/// Threading: main thread only.
@MainActor
final class LoopEndDrag {
    /// Which end a press took.
    enum End: Equatable { case start, end }

    /// How near an end (in pixels, either side) a press takes it.
    nonisolated static let reach = 6.0

    private let player: PlaybackController
    private let model: PlayerModel
    private let scrubber: UnsafeMutablePointer<GtkWidget>
    private let geometry: @MainActor () -> ScrubberGeometry
    private var dragging: (end: End, startX: Double)?
    private let bar: UnsafeMutablePointer<GtkWidget>
    private let gesture: OpaquePointer
    private var attached = false

    init(bar: UnsafeMutablePointer<GtkWidget>, scrubber: UnsafeMutablePointer<GtkWidget>, player: PlaybackController,
         model: PlayerModel, geometry: @escaping @MainActor () -> ScrubberGeometry) {
        self.player = player
        self.model = model
        self.scrubber = scrubber
        self.geometry = geometry
        self.bar = bar
        let drag = gtk_gesture_drag_new()!
        gesture = drag
        // Ours for the overlay's life (its first reference): the bar is given one of its own
        // each time a loop is set, and lets go of it when the loop is cleared.
        gtk_event_controller_set_propagation_phase(drag.cast(), GTK_PHASE_CAPTURE)
        Signal.connectPoint(drag.raw, "drag-begin") { [weak self] x, y in
            guard let self else { return }
            var sx = 0.0, sy = 0.0
            gtk_widget_translate_coordinates(bar, scrubber, x, y, &sx, &sy)
            guard let end = self.end(atX: sx, y: sy) else {
                gtk_gesture_set_state(drag, GTK_EVENT_SEQUENCE_DENIED)
                return
            }
            gtk_gesture_set_state(drag, GTK_EVENT_SEQUENCE_CLAIMED)
            self.dragging = (end, sx)
        }
        Signal.connectPoint(drag.raw, "drag-update") { [weak self] dx, _ in self?.move(by: dx) }
        Signal.connectPoint(drag.raw, "drag-end") { [weak self] dx, _ in
            self?.move(by: dx)
            self?.dragging = nil
        }
    }

    /// On the bar only while a loop is set: otherwise every press is the scrubber's alone, with
    /// no gesture of ours before it (the scrubber's clicks landed a second off beside it).
    func follow(_ span: LoopSpan?) {
        guard (span != nil) != attached else { return }
        attached = span != nil
        if attached {
            g_object_ref(gesture.raw)
            gtk_widget_add_controller(bar, gesture.cast())
        } else {
            gtk_widget_remove_controller(bar, gesture.cast())
        }
    }

    /// The end of the loop under a press at (`x`, `y`) in the scrubber's coordinates, if any.
    private func end(atX x: Double, y: Double) -> End? {
        guard model.hasMedia, let span = model.loop, let duration = model.duration, duration > 0,
              y >= -4, y <= Double(gtk_widget_get_height(scrubber)) + 4 else { return nil }
        return Self.end(atX: x, span: span, duration: duration, on: geometry())
    }

    private func move(by dx: Double) {
        guard let dragging, let span = model.loop, let duration = model.duration else { return }
        let time = geometry().time(atX: dragging.startX + dx, duration: duration)
        player.setLoop(Self.moving(dragging.end, of: span, to: time))
    }

    /// Which end lies within `reach` pixels of `x` (the nearer, when both do).
    nonisolated static func end(atX x: Double, span: LoopSpan, duration: Double, on geometry: ScrubberGeometry) -> End? {
        let startX = geometry.x(atFraction: span.start / duration)
        let startDistance = abs(x - startX)
        guard let end = span.end else { return startDistance <= reach ? .start : nil }
        let endDistance = abs(x - geometry.x(atFraction: end / duration))
        guard min(startDistance, endDistance) <= reach else { return nil }
        return endDistance < startDistance ? .end : .start
    }

    /// `span` with `end` moved to `time`: never past the other end (a frame short of it).
    nonisolated static func moving(_ end: End, of span: LoopSpan, to time: Double) -> LoopSpan {
        guard let last = span.end else { return LoopSpan(start: max(0, time)) }
        switch end {
        case .start: return LoopSpan(start: max(0, min(time, last - LoopSpan.shortest)), end: last)
        case .end: return LoopSpan(start: span.start, end: max(time, span.start + LoopSpan.shortest))
        }
    }
}
