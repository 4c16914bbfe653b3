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
        gtk_window_set_transient_for(dialog.cast(), parent.cast())
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
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys.cast(), GTK_PHASE_CAPTURE)
        Signal.connectKey(keys.raw, "key-pressed") { keyval, _ in
            guard keyval == UInt32(GDK_KEY_Escape) else { return false }
            gtk_window_destroy(dialog.cast())
            return true
        }
        gtk_widget_add_controller(dialog, keys.cast())
        // The builder (and so its objects' Swift wiring) lives as long as the dialog.
        Signal.connect(dialog.raw, "destroy") { _ = builder }
        gtk_window_present(dialog.cast())
        gtk_widget_grab_focus(entry)
    }
}
