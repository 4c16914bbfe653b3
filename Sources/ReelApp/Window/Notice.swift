import CGtk
import Foundation
import ReelGtk

/// A short message about the window's media ("Skipped clip.mp4: …", "Resumed from 0:32") as a
/// libadwaita toast, with its actions as buttons; it goes by itself. A new one replaces the one
/// showing. The toasts lie over the top of the picture, below the header bar (the player view's
/// notice layer): at the bottom, libadwaita's place for them, they would cover the controls and
/// the subtitles and take clicks aimed at the scrubber.
/// Threading: main thread only.
@MainActor
final class Notice {
    /// The toast overlay, without a child: the player view lays it over the picture.
    let overlay: UnsafeMutablePointer<GtkWidget>
    /// The toast showing (a reference of ours, dropped when it is dismissed).
    private var current: OpaquePointer?
    static let seconds = 5.0
    /// Long enough to read two lines of a warning.
    static let warningSeconds = 8.0

    init() {
        overlay = adw_toast_overlay_new()
    }

    /// Shows `text`, with a button for each action (a click runs it and dismisses the notice).
    /// `seconds`: how long it stays without a click.
    func show(_ text: String, actions: [(label: String, run: @MainActor () -> Void)] = [], seconds: Double = Notice.seconds) {
        hide()
        // Toast titles are Pango markup; file names are not.
        let escaped = GString.take(g_markup_escape_text(text, -1)) ?? ""
        guard let toast = adw_toast_new(escaped) else { return }
        adw_toast_set_timeout(toast, guint(max(1, seconds.rounded())))
        adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
        if actions.count == 1, let action = actions.first {
            adw_toast_set_button_label(toast, action.label)
            Signal.connect(UnsafeMutableRawPointer(toast), "button-clicked") { action.run() }
        } else if actions.count > 1 {
            // A toast has one button of its own; more go into its title, beside the text.
            adw_toast_set_custom_title(toast, Self.title(text, actions: actions, toast: toast))
        }
        g_object_ref(UnsafeMutableRawPointer(toast))
        current = toast
        Signal.connect(UnsafeMutableRawPointer(toast), "dismissed") { [weak self] in
            guard let self, self.current == toast else { return }
            self.current = nil
            g_object_unref(UnsafeMutableRawPointer(toast))
        }
        adw_toast_overlay_add_toast(OpaquePointer(overlay), toast)
    }

    /// Shows `text` after the notice showing (and any queued before it), without taking its
    /// place: a warning about the media must not push away a notice with a button, such as the
    /// resume notice's Start Over.
    func queue(_ text: String, seconds: Double = Notice.seconds) {
        guard let toast = adw_toast_new("") else { return }
        // A warning says what cannot play and why, longer than a toast's one line: its title
        // wraps (up to three lines) instead of ending in "…".
        let label = gtk_label_new(text)!
        gtk_label_set_wrap(label.cast(), 1)
        gtk_label_set_wrap_mode(label.cast(), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_lines(label.cast(), 3)
        gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(label.cast(), 60)
        gtk_label_set_xalign(label.cast(), 0)
        gtk_widget_add_css_class(label, "heading")
        adw_toast_set_custom_title(toast, label)
        adw_toast_set_timeout(toast, guint(max(1, seconds.rounded())))
        adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_NORMAL)
        adw_toast_overlay_add_toast(OpaquePointer(overlay), toast)
    }

    func hide() {
        guard let toast = current else { return }
        adw_toast_dismiss(toast)
    }

    private static func title(_ text: String, actions: [(label: String, run: @MainActor () -> Void)],
                              toast: OpaquePointer) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        let label = gtk_label_new(text)!
        gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_END)
        gtk_widget_add_css_class(label, "heading")
        gtk_box_append(box.cast(), label)
        for action in actions {
            let button = gtk_button_new_with_label(action.label)!
            gtk_widget_add_css_class(button, "flat")
            Signal.connect(button.raw, "clicked") {
                adw_toast_dismiss(toast)
                action.run()
            }
            gtk_box_append(box.cast(), button)
        }
        return box
    }
}
