import CGtk

/// The player view's look (data/style.css: the controls' on-screen display, the notices),
/// added once for the whole display by whatever hosts the view.
/// Threading: main thread only.
@MainActor
public enum PlayerStyles {
    private static var loaded = false

    public static func load() {
        guard !loaded, let display = gdk_display_get_default() else { return }
        loaded = true
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_path(provider, DataDirectory.file("style.css"))
        gtk_style_context_add_provider_for_display(display, provider.raw.cast(), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
