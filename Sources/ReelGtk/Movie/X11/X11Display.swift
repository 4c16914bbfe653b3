import CGtk
import CX11

/// GDK's own X11 connection, for putting pictures into GTK's window past its drawing: the Xlib
/// `Display`, and whether the server shares memory with Reel (MIT-SHM: a local server). Reel's
/// requests go on GDK's connection, so that the server takes them in order with GTK's own.
/// One per process, made at the first ask and kept.
/// Threading: main thread only (GDK's connection is used there).
@MainActor
final class X11Display {
    let gdkDisplay: OpaquePointer
    let display: OpaquePointer

    private static var made: X11Display??

    /// GTK's default display, when it is an X11 one with MIT-SHM; nil otherwise (asked once).
    static var shared: X11Display? {
        if let made { return made }
        let display = open()
        made = .some(display)
        return display
    }

    /// Whether GTK's default display is an X11 one.
    static var isX11Display: Bool {
        guard let display = gdk_display_get_default() else { return false }
        return g_type_check_instance_is_a(display.cast(to: GTypeInstance.self), GType(gdk_x11_display_get_type())) != 0
    }

    private static func open() -> X11Display? {
        guard isX11Display, let gdkDisplay = gdk_display_get_default(),
              let display = gdk_x11_display_get_xdisplay(gdkDisplay), XShmQueryExtension(display) != 0 else { return nil }
        return X11Display(gdkDisplay: gdkDisplay, display: display)
    }

    private init(gdkDisplay: OpaquePointer, display: OpaquePointer) {
        self.gdkDisplay = gdkDisplay
        self.display = display
    }

    /// Runs `body` with X errors caught by GDK (which otherwise ends the process on one); true
    /// when none came.
    func withoutErrors(_ body: () -> Void) -> Bool {
        gdk_x11_display_error_trap_push(gdkDisplay)
        body()
        return gdk_x11_display_error_trap_pop(gdkDisplay) == 0
    }

    /// Whether the server has carried out every request up to `serial` (its replies and events
    /// read so far say so; nothing is asked).
    func hasProcessed(_ serial: UInt) -> Bool { reel_x11_last_processed(display) >= serial }

    /// Waits for the server to carry out everything asked so far (one round trip).
    func sync() { XSync(display, 0) }

    func flush() { XFlush(display) }
}
