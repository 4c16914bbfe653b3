import CGtk
import ReelEngine
import ReelGtk

/// The window's size following the media it opens (`WindowFit`), and its place: a window
/// already on screen keeps its centre and stays inside the work area of its monitor. X11 lets
/// Reel move its window; Wayland does not (the compositor places it), so there the size alone
/// follows.
/// Threading: main thread only.
extension PlayerWindow {
    /// On the first open of a queue the window takes the picture's shape (sample aspect ratio
    /// and rotation applied).
    func sizeForMedia(_ info: MediaInfo) {
        guard !sizedForMedia, !isFullscreen, gtk_window_is_maximized(window.cast()) == 0,
              let video = info.videoStream, let w = video.width, let h = video.height, w > 0, h > 0 else { return }
        sizedForMedia = true
        var width = Double(w) * (video.sampleAspectRatio?.value ?? 1)
        var height = Double(h)
        if video.rotation == 90 || video.rotation == 270 { swap(&width, &height) }
        gtk_widget_realize(window)
        let area = workArea()
        let size = WindowFit.size(for: .init(width: width, height: height), on: .init(width: area.width, height: area.height))
        // The default size is the surface's, the client-side shadow around the window included:
        // add it, so that the window, not its shadow, gets the size.
        var marginX = 0.0, marginY = 0.0
        gtk_native_get_surface_transform(OpaquePointer(window), &marginX, &marginY)
        let surface = WindowFit.Size(width: size.width + 2 * marginX, height: size.height + 2 * marginY)
        let before = gtk_widget_get_visible(window) != 0 ? surfaceFrame() : nil
        gtk_window_set_default_size(window.cast(), gint(surface.width), gint(surface.height))
        if let before { keepCentre(of: before, size: surface, within: area) }
    }

    /// Moves the window so that one of `size` has the centre `before` had, inside `area`; once
    /// the window has its new size, again if the size GTK gave it differs (its content may ask
    /// for more). Nothing on Wayland, where the surface's place is unknown.
    private func keepCentre(of before: WindowFit.Rect, size: WindowFit.Size, within area: WindowFit.Rect) {
        guard let surface = gtk_native_get_surface(OpaquePointer(window)) else { return }
        let target = WindowFit.placed(size, replacing: before, within: area)
        X11WindowPlace.move(surface, x: Int(target.x), y: Int(target.y))
        let old = WindowFit.Size(width: before.width, height: before.height)
        guard size != old else { return }
        // A size the window manager refused brings no new layout: a later one (the person
        // resizing) must not move the window.
        let deadline = Clock.now + 2
        var handler: gulong = 0
        handler = Signal.connectIntInt(surface.raw, "layout") { [weak self] width, height in
            let actual = WindowFit.Size(width: Double(width), height: Double(height))
            // The move itself lays the surface out again at its old size: not the new size yet.
            if actual == old, Clock.now < deadline { return }
            Signal.disconnect(surface.raw, handler)
            guard self != nil, actual != size, Clock.now < deadline else { return }
            let corrected = WindowFit.placed(actual, replacing: before, within: area)
            X11WindowPlace.move(surface, x: Int(corrected.x), y: Int(corrected.y))
        }
    }

    /// The window's surface on screen (its shadow included); nil where the platform keeps its
    /// place from the app (Wayland).
    private func surfaceFrame() -> WindowFit.Rect? {
        guard let surface = gtk_native_get_surface(OpaquePointer(window)) else { return nil }
        guard let (x, y) = X11WindowPlace.origin(of: surface) else { return nil }
        return .init(x: Double(x), y: Double(y), width: Double(gdk_surface_get_width(surface)),
                     height: Double(gdk_surface_get_height(surface)))
    }

    /// The work area of the monitor the window is on (the first one before it is shown).
    private func workArea() -> WindowFit.Rect {
        guard let display = gdk_display_get_default() else { return .init(x: 0, y: 0, width: 1280, height: 720) }
        var monitor = gtk_native_get_surface(OpaquePointer(window)).flatMap { gdk_display_get_monitor_at_surface(display, $0) }
        var first: UnsafeMutableRawPointer?
        if monitor == nil, let monitors = gdk_display_get_monitors(display), g_list_model_get_n_items(monitors) > 0 {
            first = g_list_model_get_item(monitors, 0)
            monitor = first.map(OpaquePointer.init)
        }
        defer { if let first { g_object_unref(first.cast(to: GObject.self)) } }
        guard let monitor else { return .init(x: 0, y: 0, width: 1280, height: 720) }
        let area = X11WindowPlace.workArea(of: monitor)
        return .init(x: Double(area.x), y: Double(area.y), width: Double(area.width), height: Double(area.height))
    }
}
