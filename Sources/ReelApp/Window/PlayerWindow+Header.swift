import CGtk
import ReelGtk

/// The header bar (ui/window.ui: open, title, queue, main menu), laid over the picture where it
/// shows and fades with the controls, and Tab and F10 reaching into it while it is hidden.
/// Threading: main thread only.
extension PlayerWindow {
    func installHeader(_ builder: UIBuilder, queueButton: UnsafeMutablePointer<GtkWidget>) {
        let header: UnsafeMutablePointer<GtkWidget> = builder.widget("header-bar")
        gtk_header_bar_pack_end(header.cast(), queueButton)
        let menuButton: UnsafeMutablePointer<GtkWidget> = builder.widget("menu-button")
        self.menuButton = menuButton
        if let popover = gtk_menu_button_get_popover(menuButton.cast()) {
            MenuFocus.returnsFocus(from: popover.cast(), in: menuButton)
            // Opens leftwards from the button's right edge, into the window: centred, the
            // menu ran past the right edge of a window filling the screen, and a Wayland
            // compositor that does not slide popovers back (Weston) cut it off there.
            gtk_widget_set_halign(popover.cast(), GTK_ALIGN_END)
        }
        headerBar = header
        // With the queue button in it: the popovers it holds now keep the controls up.
        playerView.addFadingOverlay(header)
    }

    /// The header bar's height over the picture (its natural height, whether it shows now or
    /// has faded out): what lies over the picture's top may start below it.
    var headerHeight: Double {
        guard let headerBar else { return 0 }
        var natural: gint = 0
        gtk_widget_measure(headerBar, GTK_ORIENTATION_VERTICAL, -1, nil, &natural, nil, nil)
        return Double(natural)
    }

    /// Keys that reach into the header while it is faded out (its buttons unmapped, so GTK's
    /// own handling finds none of them): Tab shows it first, then moves the focus as always;
    /// F10 (no modifier) shows it and opens the main menu, as GTK's F10 does for a primary menu
    /// button; Menu and Shift+F10 open the picture's menu. True when the key was taken.
    func headerKey(_ keyval: guint, _ state: GdkModifierType) -> Bool {
        if keyval == guint(GDK_KEY_Tab) || keyval == guint(GDK_KEY_ISO_Left_Tab) {
            playerView.revealControls()
            return false
        }
        let modifiers = state.rawValue & (GDK_SHIFT_MASK.rawValue | GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue)
        // The context menu's keys (GTK's own for a widget's menu): the picture's menu.
        if (keyval == guint(GDK_KEY_Menu) && modifiers == 0) || (keyval == guint(GDK_KEY_F10) && modifiers == GDK_SHIFT_MASK.rawValue) {
            playerView.openContextMenu()
            return true
        }
        guard keyval == guint(GDK_KEY_F10), modifiers == 0, let menuButton else { return false }
        playerView.revealControls()
        gtk_menu_button_popup(menuButton.cast())
        return true
    }
}
