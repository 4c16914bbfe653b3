import CGtk
import CX11

/// Where a window's surface is on the screen, moving it, and a monitor's work area (without the
/// desktop's panels): GTK 4 offers none of these. X11 lets a client do all three, through Xlib
/// on GDK's own objects; Wayland lets it do none, and there these say so (nil, false, the
/// monitor's whole geometry).
/// Threading: main thread only (GDK's X connection is used there).
@MainActor
enum X11WindowPlace {
    /// The surface's top-left corner on the screen (its shadow included, as its size is).
    static func origin(of surface: OpaquePointer) -> (x: Int, y: Int)? {
        guard let (display, window) = x11(surface) else { return nil }
        var x: Int32 = 0, y: Int32 = 0
        guard reel_x11_window_origin(display, window, &x, &y) != 0 else { return nil }
        return (Int(x), Int(y))
    }

    /// Asks the window manager to move the surface's top-left corner to (`x`, `y`).
    @discardableResult
    static func move(_ surface: OpaquePointer, x: Int, y: Int) -> Bool {
        guard let (display, window) = x11(surface) else { return false }
        reel_x11_move_window(display, window, Int32(x), Int32(y))
        return true
    }

    /// The monitor's work area where X11 tells it, else all of it.
    static func workArea(of monitor: OpaquePointer) -> GdkRectangle {
        var area = GdkRectangle()
        if isA(monitor, gdk_x11_monitor_get_type()) {
            gdk_x11_monitor_get_workarea(monitor, &area)
        } else {
            gdk_monitor_get_geometry(monitor, &area)
        }
        return area
    }

    private static func x11(_ surface: OpaquePointer) -> (OpaquePointer, Window)? {
        guard isA(surface, gdk_x11_surface_get_type()), let gdkDisplay = gdk_surface_get_display(surface),
              let display = gdk_x11_display_get_xdisplay(gdkDisplay) else { return nil }
        return (display, gdk_x11_surface_get_xid(surface))
    }

    private static func isA(_ instance: OpaquePointer, _ type: UInt) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(instance).assumingMemoryBound(to: GTypeInstance.self), GType(type)) != 0
    }
}
