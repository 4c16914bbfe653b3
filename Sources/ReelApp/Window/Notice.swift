import CGtk
import ReelGtk

/// A short message over the top of the picture ("Skipped clip.mp4: …") that goes away by
/// itself. It lives in the auxiliary-view slot like the info card.
/// Threading: main thread only.
@MainActor
final class Notice {
    private let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private var buttons: [UnsafeMutablePointer<GtkWidget>] = []
    private weak var view: PlayerView?
    private var timer: Timer?
    static let rect = AuxiliarySlot.Rect(x: 0.1, y: 0.04, width: 0.8, height: 0.12)
    static let seconds = 5.0

    init(view: PlayerView) {
        self.view = view
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)
        // Held by this object, not only by the overlay: taken off the picture and put back
        // later, it must still exist.
        g_object_ref_sink(widget.raw.cast(to: GObject.self))
        label = gtk_label_new(nil)
        // One line: a wrapping label asks for little width and breaks even short messages.
        // What does not fit the picture's width is ellipsized (the whole text is its tooltip).
        gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_END)
        gtk_widget_set_valign(label, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        gtk_box_append(widget.cast(), label)
        gtk_widget_add_css_class(widget, "osd")
        gtk_widget_add_css_class(widget, "reel-notice")
        Accessibility.setLabel(widget, "Notice")
    }

    /// Shows `text`, with a button for each action (a click runs it and closes the notice).
    /// `seconds`: how long it stays without a click.
    func show(_ text: String, actions: [(label: String, run: @MainActor () -> Void)] = [], seconds: Double = Notice.seconds) {
        guard let view else { return }
        gtk_label_set_text(label.cast(), text)
        gtk_widget_set_tooltip_text(label, text)
        for button in buttons { gtk_box_remove(widget.cast(), button) }
        buttons = actions.map { action in
            let button = gtk_button_new_with_label(action.label)!
            Signal.connect(button.raw, "clicked") { [weak self] in
                self?.hide()
                action.run()
            }
            gtk_box_append(widget.cast(), button)
            return button
        }
        // Only a notice with buttons takes clicks; a plain one lets them through to the picture.
        gtk_widget_set_can_target(widget, actions.isEmpty ? 0 : 1)
        view.auxiliarySlot.add(widget, at: Self.rect)
        timer?.cancel()
        timer = Timer.once(after: seconds) { [weak self] in self?.hide() }
    }

    func hide() {
        timer?.cancel()
        timer = nil
        view?.auxiliarySlot.remove(widget)
    }
}
