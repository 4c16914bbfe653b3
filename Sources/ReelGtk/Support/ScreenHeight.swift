import CGtk

/// The tallest screen's height in device pixels: a web page's video is chosen no taller (a 4K
/// stream on a 1080p screen costs four times the bytes for nothing seen).
/// Threading: main thread only.
@MainActor
enum ScreenHeight {
    static func tallest() -> Int? {
        guard let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display) else { return nil }
        var tallest = 0
        for index in 0..<g_list_model_get_n_items(monitors) {
            guard let item = g_list_model_get_item(monitors, index) else { continue }
            defer { g_object_unref(item) }
            let monitor = OpaquePointer(item)
            var area = GdkRectangle()
            gdk_monitor_get_geometry(monitor, &area)
            tallest = max(tallest, Int(area.height) * Int(gdk_monitor_get_scale_factor(monitor)))
        }
        return tallest > 0 ? tallest : nil
    }
}
