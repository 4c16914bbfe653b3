import CGtk
import Foundation
import ReelEngine

/// A short message over the picture's top-right corner when the person changes a track or a
/// delay ("Subtitles: French", "Subtitle delay: +100 ms"), gone after a moment. It lives in
/// the auxiliary-view slot, like the media information card.
/// Threading: main thread only.
@MainActor
final class TrackNotice {
    private let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private weak var view: PlayerView?
    private var timer: Timer?
    static let rect = AuxiliarySlot.Rect(x: 0.6, y: 0.03, width: 0.38, height: 0.09)
    static let seconds = 1.5

    init(view: PlayerView) {
        self.view = view
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        // Our own reference: the slot drops its one when the notice is taken away, and the
        // same widget comes back for the next message. Held for the window's lifetime.
        g_object_ref_sink(widget.raw.cast(to: GObject.self))
        label = gtk_label_new(nil)
        gtk_label_set_xalign(label.cast(), 1)
        gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_END)
        gtk_widget_set_halign(label, GTK_ALIGN_END)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        gtk_box_append(widget.cast(), label)
        // The label, not the whole slot rectangle, carries the OSD background: it hugs the text.
        gtk_widget_add_css_class(label, "osd")
        gtk_widget_add_css_class(label, "reel-track-notice")
        gtk_widget_set_can_target(widget, 0)
        Accessibility.setLabel(widget, "Track notice")
    }

    func show(_ text: String) {
        guard let view else { return }
        gtk_label_set_text(label.cast(), text)
        if !view.auxiliarySlot.contains(widget) { view.auxiliarySlot.add(widget, at: Self.rect) }
        timer?.cancel()
        timer = Timer.once(after: Self.seconds) { [weak self] in
            guard let self, let view = self.view else { return }
            view.auxiliarySlot.remove(self.widget)
        }
    }

    static func delayText(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        return ms == 0 ? "0 ms" : (ms > 0 ? "+\(ms) ms" : "−\(-ms) ms")
    }
}
