import CGtk
import CWayland
import Glibc

/// Reel's own objects on GDK's Wayland connection: the compositor, the subcompositor and
/// shared memory, bound through a registry of its own on an event queue of its own, so that
/// their events (a buffer's release) never reach GDK's queue and GDK's never reach it. GDK keeps
/// reading the socket; the events it reads for this queue wait in it until `dispatch` runs
/// them. One per process, made at the first ask and kept.
/// Threading: main thread only (the queue is dispatched there, where GDK's is).
@MainActor
final class WaylandConnection {
    let display: OpaquePointer
    let queue: OpaquePointer
    let compositor: OpaquePointer
    let subcompositor: OpaquePointer
    let shm: OpaquePointer

    private static var made: WaylandConnection??

    /// The connection of GTK's default display, when it is a Wayland one that offers all three
    /// globals; nil otherwise (asked once).
    static var shared: WaylandConnection? {
        if let made { return made }
        let connection = open()
        made = .some(connection)
        return connection
    }

    /// Whether GTK's default display is a Wayland one.
    static var isWaylandDisplay: Bool {
        guard let display = gdk_display_get_default() else { return false }
        return g_type_check_instance_is_a(display.cast(to: GTypeInstance.self), GType(gdk_wayland_display_get_type())) != 0
    }

    private static func open() -> WaylandConnection? {
        guard isWaylandDisplay, let gdkDisplay = gdk_display_get_default(),
              let display = gdk_wayland_display_get_wl_display(gdkDisplay),
              let queue = wl_display_create_queue(display) else { return nil }
        var globals = reel_wl_globals()
        guard reel_wl_bind_globals(display, queue, &globals) == 0,
              let compositor = globals.compositor, let subcompositor = globals.subcompositor, let shm = globals.shm else {
            if let proxy = globals.compositor { wl_compositor_destroy(proxy) }
            if let proxy = globals.subcompositor { wl_subcompositor_destroy(proxy) }
            if let proxy = globals.shm { wl_shm_destroy(proxy) }
            wl_event_queue_destroy(queue)
            return nil
        }
        return WaylandConnection(display: display, queue: queue, compositor: compositor, subcompositor: subcompositor, shm: shm)
    }

    private init(display: OpaquePointer, queue: OpaquePointer, compositor: OpaquePointer, subcompositor: OpaquePointer,
                 shm: OpaquePointer) {
        self.display = display
        self.queue = queue
        self.compositor = compositor
        self.subcompositor = subcompositor
        self.shm = shm
    }

    /// Runs the events waiting for Reel's queue: those GDK has read, and, with `read`, those
    /// still on the socket (read without waiting; GDK's own events read so stay queued for it).
    func dispatch(read: Bool = false) {
        guard wl_display_get_error(display) == 0 else { return }
        if read {
            // Balanced with a read or a cancel; refused while the queue holds events: run them.
            while wl_display_prepare_read_queue(display, queue) != 0 {
                if wl_display_dispatch_queue_pending(display, queue) < 0 { return }
            }
            var fd = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, 0) > 0 { wl_display_read_events(display) } else { wl_display_cancel_read(display) }
        }
        wl_display_dispatch_queue_pending(display, queue)
    }

    /// Sends what was asked now rather than at GDK's next flush.
    func flush() { wl_display_flush(display) }
}
