import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// What Reel shows instead of its window when files it needs are missing (an incomplete
/// installation, a `REEL_DATA_DIR` pointing at the wrong folder): which files, where it looked,
/// and what to do. Built in code, as the GtkBuilder files may be the ones missing.
/// Threading: main thread only.
@MainActor
enum MissingFilesNotice {
    static var heading: String { tr("Reel cannot start: some of its files are missing") }

    /// The text for the window and the terminal.
    static func message(missing: [String]) -> String {
        // Translators: %1$@ is a folder, %2$@ the missing files, one a line.
        String(format: tr("Reel looked for its files in %1$@ and did not find:\n%2$@\n\nInstall Reel again, or set REEL_DATA_DIR to the folder that holds ui/ and style.css."),
               DataDirectory.path, missing.map { "  " + $0 }.joined(separator: "\n"))
    }

    /// A window of the application with the message and a Quit button; the application ends
    /// when it closes.
    static func present(on application: UnsafeMutablePointer<GtkApplication>, missing: [String]) -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_application_window_new(application)!
        gtk_window_set_title(window.cast(), "Reel")
        gtk_window_set_default_size(window.cast(), 560, -1)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        for set in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            set(box, 24)
        }
        let title = gtk_label_new(heading)!
        gtk_widget_add_css_class(title, "title-2")
        gtk_label_set_wrap(title.cast(), 1)
        gtk_label_set_xalign(title.cast(), 0)
        let body = gtk_label_new(message(missing: missing))!
        gtk_label_set_wrap(body.cast(), 1)
        gtk_label_set_selectable(body.cast(), 1)
        gtk_label_set_xalign(body.cast(), 0)
        let quit = gtk_button_new_with_label(tr("Quit"))!
        gtk_widget_set_halign(quit, GTK_ALIGN_END)
        gtk_widget_add_css_class(quit, "suggested-action")
        Signal.connect(quit.raw, "clicked") { gtk_window_destroy(window.cast()) }
        gtk_box_append(box.cast(), title)
        gtk_box_append(box.cast(), body)
        gtk_box_append(box.cast(), quit)
        gtk_window_set_child(window.cast(), box)
        // Not the selectable text, which would take the focus and show itself all selected.
        gtk_window_set_focus(window.cast(), quit)
        gtk_window_present(window.cast())
        return window
    }
}
