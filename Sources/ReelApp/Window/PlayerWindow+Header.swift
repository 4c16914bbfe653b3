import CGtk
import ReelGtk

/// The header bar (ui/window.ui: open, title, queue, main menu), laid over the picture where it
/// shows and fades with the controls, and F10 reaching its menu while it is hidden.
/// Threading: main thread only.
extension PlayerWindow {
    func installHeader(_ builder: UIBuilder, queueButton: UnsafeMutablePointer<GtkWidget>) {
        let header: UnsafeMutablePointer<GtkWidget> = builder.widget("header-bar")
        gtk_header_bar_pack_end(header.cast(), queueButton)
        menuButton = builder.widget("menu-button")
        // With the queue button in it: the popovers it holds now keep the controls up.
        playerView.addFadingOverlay(header)
    }

    /// F10 (no modifier) opens the main menu, as GTK's own F10 does for a primary menu button;
    /// GTK's finds nothing to open while the header is faded out (its button is unmapped), so
    /// the header shows first. True when the key was taken.
    func mainMenuKey(_ keyval: guint, _ state: GdkModifierType) -> Bool {
        let modifiers = state.rawValue & (GDK_SHIFT_MASK.rawValue | GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue)
        guard keyval == guint(GDK_KEY_F10), modifiers == 0, let menuButton else { return false }
        playerView.revealControls()
        gtk_menu_button_popup(menuButton.cast())
        return true
    }
}
