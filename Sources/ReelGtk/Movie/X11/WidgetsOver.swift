import CGtk

/// Whether GTK draws anything over a widget: a widget mapped later in the stacking order (a
/// later sibling of the widget or of one of its ancestors, as GtkOverlay stacks its overlays)
/// that lies on the widget's area. Containers count through what they hold, so a full-size
/// overlay box with its content hidden is not "over"; a widget mapped but not yet laid out
/// counts as over (it will be, at its first allocation). Popovers and tooltips draw in windows
/// of their own, above, and do not count.
/// Threading: main thread only (reads GTK's widget tree).
@MainActor
enum WidgetsOver {
    static func anything(over widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        let area = graphene_rect_t(origin: graphene_point_t(x: 0, y: 0),
                                   size: graphene_size_t(width: Float(gtk_widget_get_width(widget)),
                                                         height: Float(gtk_widget_get_height(widget))))
        var child = widget
        while let parent = gtk_widget_get_parent(child), !isNative(child) {
            var sibling = gtk_widget_get_next_sibling(child)
            while let current = sibling {
                if draws(current, over: area, of: widget) { return true }
                sibling = gtk_widget_get_next_sibling(current)
            }
            child = parent
        }
        return false
    }

    private static func draws(_ candidate: UnsafeMutablePointer<GtkWidget>, over area: graphene_rect_t,
                              of widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard gtk_widget_get_mapped(candidate) != 0, gtk_widget_get_opacity(candidate) > 0, !isNative(candidate) else { return false }
        guard let first = gtk_widget_get_first_child(candidate) else {
            if gtk_widget_get_width(candidate) <= 0 || gtk_widget_get_height(candidate) <= 0 { return wantsRoom(candidate) }
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(candidate, widget, &bounds) != 0 else { return true }
            var area = area
            return graphene_rect_intersection(&bounds, &area, nil)
        }
        var child: UnsafeMutablePointer<GtkWidget>? = first
        while let current = child {
            if draws(current, over: area, of: widget) { return true }
            child = gtk_widget_get_next_sibling(current)
        }
        return false
    }

    /// A widget without room yet that will have some at its first allocation (an empty one,
    /// as a toast overlay without toasts, never will).
    private static func wantsRoom(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        var width: Int32 = 0, height: Int32 = 0
        gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, nil, &width, nil, nil)
        gtk_widget_measure(widget, GTK_ORIENTATION_VERTICAL, -1, nil, &height, nil, nil)
        return width > 0 && height > 0
    }

    private static func isNative(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        g_type_check_instance_is_a(widget.cast(to: GTypeInstance.self), gtk_native_get_type()) != 0
    }
}
