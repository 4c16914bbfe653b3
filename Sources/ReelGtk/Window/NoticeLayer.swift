import CGtk

/// Where the host's notices (libadwaita's toasts: "Resumed from 0:20 · Start Over") lie over
/// the picture: on top of every other layer (player-view.ui lists them), at the top edge just
/// below the host's header bar, centred and no larger than they are. There they never cover
/// the controls or the subtitles at the bottom, never take a click aimed at the scrubber, and
/// do not move when the header comes and goes. Outside its notices the picture takes the clicks.
/// Threading: main thread only.
@MainActor
final class NoticeLayer {
    private let overlay: UnsafeMutablePointer<GtkWidget>
    private var widgets: [UnsafeMutablePointer<GtkWidget>] = []
    /// How far down the top edge's own overlays (the header bar) reach, shown or not.
    private let topInset: @MainActor () -> Double

    init(overlay: UnsafeMutablePointer<GtkWidget>, topInset: @escaping @MainActor () -> Double) {
        self.overlay = overlay
        self.topInset = topInset
        Signal.connectChildPosition(overlay.raw) { [weak self] child, allocation in
            guard let self, let child, let allocation, self.widgets.contains(child) else { return false }
            self.place(child, allocation)
            return true
        }
    }

    /// The lowest of the notice widgets: the host's other overlays go below it.
    var bottom: UnsafeMutablePointer<GtkWidget>? { widgets.first }

    func add(_ widget: UnsafeMutablePointer<GtkWidget>) {
        widgets.append(widget)
        gtk_overlay_add_overlay(overlay.cast(), widget)
    }

    private func place(_ child: UnsafeMutablePointer<GtkWidget>, _ allocation: UnsafeMutablePointer<GdkRectangle>) {
        let viewWidth = gtk_widget_get_width(overlay), viewHeight = gtk_widget_get_height(overlay)
        var width: gint = 0, height: gint = 0
        gtk_widget_measure(child, GTK_ORIENTATION_HORIZONTAL, -1, nil, &width, nil, nil)
        width = min(width, viewWidth)
        gtk_widget_measure(child, GTK_ORIENTATION_VERTICAL, width, nil, &height, nil, nil)
        let top = gint(topInset().rounded())
        allocation.pointee.x = (viewWidth - width) / 2
        allocation.pointee.y = min(top, max(0, viewHeight - height))
        allocation.pointee.width = width
        allocation.pointee.height = min(height, viewHeight)
    }
}
