import CGtk

/// Where the movie widget lies in its window's surface and its size: logical pixels (surface
/// coordinates, the CSD shadow's margin included), and the scale to device pixels. Both ways
/// around GTK's drawing (the Wayland subsurface, the X11 direct put) place the picture by it.
/// Threading: a value type.
struct WidgetPlace: Equatable {
    var x: Int, y: Int, width: Int, height: Int, scale: Int

    var pixelWidth: Int { width * scale }
    var pixelHeight: Int { height * scale }

    /// The widget's place now; nil when it is in no window.
    @MainActor
    init?(of widget: UnsafeMutablePointer<GtkWidget>) {
        guard let native = gtk_widget_get_native(widget) else { return nil }
        var origin = graphene_point_t(x: 0, y: 0), inNative = graphene_point_t(x: 0, y: 0)
        guard gtk_widget_compute_point(widget, native.cast(to: GtkWidget.self), &origin, &inNative) != 0 else { return nil }
        var dx = 0.0, dy = 0.0
        gtk_native_get_surface_transform(native, &dx, &dy)
        x = Int((Double(inNative.x) + dx).rounded())
        y = Int((Double(inNative.y) + dy).rounded())
        width = Int(gtk_widget_get_width(widget))
        height = Int(gtk_widget_get_height(widget))
        scale = max(1, Int(gtk_widget_get_scale_factor(widget)))
    }
}
