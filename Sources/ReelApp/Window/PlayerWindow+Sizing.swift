import CGtk
import ReelEngine
import ReelGtk

/// The window's size following the media it opens.
/// Threading: main thread only.
extension PlayerWindow {
    /// On the first open the window takes the picture's shape (sample aspect ratio and
    /// rotation applied) at its natural size, at most 70 % of the screen.
    func sizeForMedia(_ info: MediaInfo) {
        guard !sizedForMedia, !isFullscreen, gtk_window_is_maximized(window.cast()) == 0,
              let video = info.videoStream, let w = video.width, let h = video.height, w > 0, h > 0 else { return }
        sizedForMedia = true
        var width = Double(w) * (video.sampleAspectRatio?.value ?? 1)
        var height = Double(h)
        if video.rotation == 90 || video.rotation == 270 { swap(&width, &height) }
        let (maxW, maxH) = screenLimit()
        // The header bar lies over the picture: the picture is the whole window.
        let fit = min(maxW / width, maxH / height)
        // Small videos open larger (whole multiples stay crisp), so that the picture is
        // watchable and the controls have room: a 320×240 clip opens at 640×480.
        let enlarge = width < Self.smallestPictureWidth ? (Self.smallestPictureWidth / width).rounded(.up) : 1
        let scale = min(enlarge, fit)
        // The default size includes the client-side shadow around the window; add it so the
        // picture, not the window, gets the picture's size.
        gtk_widget_realize(window)
        var marginX = 0.0, marginY = 0.0
        gtk_native_get_surface_transform(OpaquePointer(window), &marginX, &marginY)
        gtk_window_set_default_size(window.cast(), gint((width * scale).rounded() + 2 * marginX),
                                    gint((height * scale).rounded() + 2 * marginY))
    }

    static let smallestPictureWidth = 640.0

    private func screenLimit() -> (Double, Double) {
        guard let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display),
              g_list_model_get_n_items(monitors) > 0, let monitor = g_list_model_get_item(monitors, 0) else { return (1280, 720) }
        defer { g_object_unref(monitor.cast(to: GObject.self)) }
        var geometry = GdkRectangle()
        gdk_monitor_get_geometry(OpaquePointer(monitor), &geometry)
        return (Double(geometry.width) * 0.7, Double(geometry.height) * 0.7)
    }
}
