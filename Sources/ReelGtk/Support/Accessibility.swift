import CGtk

/// Accessible names for widgets whose meaning changes (play ↔ pause), so screen readers and
/// the end-to-end tests read what the control does now.
/// Threading: main thread only.
@MainActor
public enum Accessibility {
    public static func setLabel(_ widget: UnsafeMutablePointer<GtkWidget>, _ label: String) {
        var value = GValue()
        g_value_init(&value, reel_type_string())
        g_value_set_string(&value, label)
        var property = GTK_ACCESSIBLE_PROPERTY_LABEL
        gtk_accessible_update_property_value(OpaquePointer(widget), 1, &property, &value)
        g_value_unset(&value)
    }
}

/// Seconds on the monotonic clock, for the UI's timing logic. Threading: any thread.
public enum Clock {
    public static var now: Double { Double(g_get_monotonic_time()) / 1e6 }
}
