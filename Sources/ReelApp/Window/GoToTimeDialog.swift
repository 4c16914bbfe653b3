import CGtk
import ReelEngine
import ReelGtk

/// Go to Time (Ctrl+J; ui/go-to-time.ui): a small dialog that reads a time, a frame number or a
/// share of the length (`TimeEntry`) and hands the moment to seek to. It opens with where
/// playback is, selected, so typing replaces it. Text it cannot go to gets the reason under the
/// entry, in the error style, and nothing moves; typing puts the hint back. Escape and Cancel
/// close it. Threading: main thread only.
@MainActor
enum GoToTimeDialog {
    static func ask(parent: UnsafeMutablePointer<GtkWidget>, position: Double, length: Double?, frameRate: Double?,
                    _ done: @escaping @MainActor (Double) -> Void) {
        let builder = UIBuilder(.goToTime)
        let dialog = builder.widget("go-to-time-dialog")
        let entry = builder.widget("time-entry")
        let go = builder.widget("go-time-button")
        let cancel = builder.widget("cancel-time-button")
        let hint = builder.widget("time-hint")
        let hintText = String(cString: gtk_label_get_text(hint.cast()))
        gtk_editable_set_text(OpaquePointer(entry), TimeFormat.clock(position))
        func say(_ problem: TimeEntry.Problem?) {
            gtk_label_set_text(hint.cast(), problem?.message ?? hintText)
            if problem == nil {
                gtk_widget_remove_css_class(entry, "error")
                gtk_widget_remove_css_class(hint, "error")
                gtk_widget_add_css_class(hint, "dim-label")
            } else {
                gtk_widget_add_css_class(entry, "error")
                gtk_widget_remove_css_class(hint, "dim-label")
                gtk_widget_add_css_class(hint, "error")
            }
        }
        func accept() {
            let text = String(cString: gtk_editable_get_text(OpaquePointer(entry)))
            switch TimeEntry.resolve(text, length: length, frameRate: frameRate) {
            case .success(let seconds):
                gtk_window_destroy(dialog.cast())
                done(seconds)
            case .failure(let problem):
                say(problem)
                gtk_entry_grab_focus_without_selecting(entry.cast())
            }
        }
        Signal.connect(entry.raw, "changed") { say(nil) }
        Signal.connect(entry.raw, "activate") { accept() }
        Signal.connect(go.raw, "clicked") { accept() }
        Signal.connect(cancel.raw, "clicked") { gtk_window_destroy(dialog.cast()) }
        SmallDialog.present(dialog, builder: builder, parent: parent) { gtk_window_destroy(dialog.cast()) }
        gtk_widget_grab_focus(entry)
    }
}
