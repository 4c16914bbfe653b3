import CGtk

/// Where a host places its own widgets over the picture (an information card, a cover, its own
/// controls): each at a rectangle given as fractions of the movie view, so it follows resizing
/// and fullscreen.
/// Threading: main thread only.
@MainActor
public final class AuxiliarySlot {
    /// A rectangle in fractions of the movie view: (0, 0, 1, 1) covers it all; `top` pixels
    /// lower, to keep clear of what the host lays over the picture's top (a header bar).
    public struct Rect: Sendable, Equatable {
        public var x, y, width, height: Double
        public var top: Double
        public init(x: Double, y: Double, width: Double, height: Double, top: Double = 0) {
            self.x = x; self.y = y; self.width = width; self.height = height; self.top = top
        }
    }

    private let overlay: UnsafeMutablePointer<GtkWidget>
    private var placed: [(widget: UnsafeMutablePointer<GtkWidget>, rect: Rect)] = []

    init(overlay: UnsafeMutablePointer<GtkWidget>, below: UnsafeMutablePointer<GtkWidget>) {
        self.overlay = overlay
        self.firstAbove = below
        // GtkOverlay asks where each overlay child goes; ours are placed by their rectangles.
        Signal.connectChildPosition(overlay.raw) { [weak self] child, allocation in
            self?.position(child, allocation) ?? false
        }
    }

    /// The overlay child the slot's widgets go below (the status page: slot widgets sit
    /// between the picture and the player's own overlays).
    private let firstAbove: UnsafeMutablePointer<GtkWidget>

    /// Places `widget` over the movie at `rect`. Adding the same widget again moves it.
    public func add(_ widget: UnsafeMutablePointer<GtkWidget>, at rect: Rect) {
        if let index = placed.firstIndex(where: { $0.widget == widget }) {
            placed[index].rect = rect
            gtk_widget_queue_resize(overlay)
            return
        }
        placed.append((widget, rect))
        gtk_overlay_add_overlay(overlay.cast(), widget)
        // Keep the slot's widgets just above the picture, below status, spinner and controls.
        gtk_widget_insert_before(widget, overlay, firstAbove)
    }

    public func remove(_ widget: UnsafeMutablePointer<GtkWidget>) {
        guard let index = placed.firstIndex(where: { $0.widget == widget }) else { return }
        placed.remove(at: index)
        gtk_overlay_remove_overlay(overlay.cast(), widget)
    }

    public func contains(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        placed.contains { $0.widget == widget }
    }

    private func position(_ child: UnsafeMutablePointer<GtkWidget>?, _ allocation: UnsafeMutablePointer<GdkRectangle>?) -> Bool {
        guard let child, let allocation, let entry = placed.first(where: { $0.widget == child }) else { return false }
        let w = Double(gtk_widget_get_width(overlay)), h = Double(gtk_widget_get_height(overlay))
        allocation.pointee.x = gint((entry.rect.x * w).rounded())
        allocation.pointee.y = gint((entry.rect.y * h + entry.rect.top).rounded())
        allocation.pointee.width = gint(max(1, (entry.rect.width * w).rounded()))
        allocation.pointee.height = gint(max(1, (entry.rect.height * h).rounded()))
        return true
    }
}
