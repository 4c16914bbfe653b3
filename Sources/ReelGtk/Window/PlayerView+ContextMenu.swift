import CGtk

/// The host's menu over the picture: a right click opens it where the pointer is (the host
/// opens it from the keyboard, Menu or Shift+F10, with `openContextMenu`). Its items are the
/// host's actions, so they are as sensitive as those are. While it is open the controls stay
/// up, as under the header bar's menus.
/// Threading: main thread only.
extension PlayerView {
    /// Sets the menu (a GMenuModel) that a right click on the picture opens.
    public func setContextMenu(_ model: UnsafeMutableRawPointer) {
        if let contextMenu {
            gtk_popover_menu_set_menu_model(contextMenu.cast(), model.cast())
            return
        }
        let popover = gtk_popover_menu_new_from_model(model.cast())!
        // A popover is a surface of its own: the overlay lays out none of it.
        gtk_widget_set_parent(popover, widget)
        gtk_popover_set_has_arrow(popover.cast(), 0)
        gtk_widget_set_halign(popover, GTK_ALIGN_START)
        contextMenu = popover
        Signal.connectPointer(popover.raw, "notify::visible") { [weak self] _ in
            guard let self else { return }
            self.visibility.popover(gtk_widget_get_visible(popover) != 0, now: Clock.now)
            self.applyVisibility()
        }
        MenuFocus.returnsFocus(from: popover, in: movie.area)
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click.cast(), reel_button_secondary())
        Signal.connectPress(click.raw, "pressed") { [weak self] _, x, y in self?.openContextMenu(x: x, y: y) }
        gtk_widget_add_controller(movie.area, click.cast())
    }

    /// Opens the context menu at (`x`, `y`) in the view, or at its centre.
    public func openContextMenu(x: Double? = nil, y: Double? = nil) {
        guard let contextMenu else { return }
        var point = GdkRectangle(x: gint(x ?? Double(gtk_widget_get_width(widget)) / 2),
                                 y: gint(y ?? Double(gtk_widget_get_height(widget)) / 2), width: 1, height: 1)
        gtk_popover_set_pointing_to(contextMenu.cast(), &point)
        gtk_popover_popup(contextMenu.cast())
    }
}
