import CGtk

/// Gives the window its keys back after a menu closes. An item picked from a submenu of a
/// popover menu leaves the window's focus on that item inside the closed menu (GTK 4.8), and the
/// window's keys then do nothing until the next click; so once the menu has done its work (it
/// activates the item after it hides), the focus goes back to where the menu came from.
/// Threading: main thread only.
@MainActor
public enum MenuFocus {
    /// Watches `popover` (a popover menu, or a menu button's) that opens from `widget`.
    public static func returnsFocus(from popover: UnsafeMutablePointer<GtkWidget>, in widget: UnsafeMutablePointer<GtkWidget>) {
        Signal.connectPointer(popover.raw, "notify::visible") { _ in
            guard gtk_widget_get_visible(popover) == 0 else { return }
            MainContext.later {
                guard gtk_widget_get_visible(popover) == 0, let root = gtk_widget_get_root(widget),
                      let focus = gtk_root_get_focus(root), gtk_widget_is_ancestor(focus, popover) != 0 else { return }
                if gtk_widget_grab_focus(widget) == 0 { gtk_root_set_focus(root, nil) }
            }
        }
    }
}
