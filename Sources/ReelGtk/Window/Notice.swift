import CGtk

/// A short message over the top of the picture ("Skipped clip.mp4: …") that goes away by
/// itself. It lives in the auxiliary-view slot like the info card.
/// Threading: main thread only.
@MainActor
final class Notice {
    private let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private weak var view: PlayerView?
    private var timer: Timer?
    static let rect = AuxiliarySlot.Rect(x: 0.1, y: 0.04, width: 0.8, height: 0.12)
    static let seconds = 5.0

    init(view: PlayerView) {
        self.view = view
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        label = gtk_label_new(nil)
        gtk_label_set_wrap(label.cast(), 1)
        gtk_widget_set_valign(label, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        gtk_box_append(widget.cast(), label)
        gtk_widget_add_css_class(widget, "osd")
        gtk_widget_add_css_class(widget, "reel-notice")
        gtk_widget_set_can_target(widget, 0)
        Accessibility.setLabel(widget, "Notice")
    }

    func show(_ text: String) {
        guard let view else { return }
        gtk_label_set_text(label.cast(), text)
        view.auxiliarySlot.add(widget, at: Self.rect)
        timer?.cancel()
        timer = Timer.once(after: Self.seconds) { [weak self] in self?.hide() }
    }

    func hide() {
        timer?.cancel()
        timer = nil
        view?.auxiliarySlot.remove(widget)
    }
}
