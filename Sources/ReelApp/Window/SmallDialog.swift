import CGtk
import ReelGtk

/// Shows one of Reel's small dialogs (a window from a `.ui` file: Open an Address, Go to Time)
/// as GNOME's own: over the player's window, closed by Escape as every dialog is, and with its
/// builder (so its objects' Swift wiring) alive as long as it is.
/// Threading: main thread only.
@MainActor
enum SmallDialog {
    /// `dismiss` closes it (Escape); `key` sees every other key first and returns true for one
    /// it took.
    static func present(_ dialog: UnsafeMutablePointer<GtkWidget>, builder: UIBuilder, parent: UnsafeMutablePointer<GtkWidget>,
                        dismiss: @escaping @MainActor () -> Void, key: (@MainActor (UInt32) -> Bool)? = nil) {
        gtk_window_set_transient_for(dialog.cast(), parent.cast())
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys.cast(), GTK_PHASE_CAPTURE)
        Signal.connectKey(keys.raw, "key-pressed") { keyval, _ in
            if keyval == UInt32(GDK_KEY_Escape) {
                dismiss()
                return true
            }
            return key?(keyval) ?? false
        }
        gtk_widget_add_controller(dialog, keys.cast())
        Signal.connect(dialog.raw, "destroy") { _ = builder }
        gtk_window_present(dialog.cast())
    }
}
