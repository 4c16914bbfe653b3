import CGtk

/// Reads the text on the clipboard (GDK's asynchronous read: another program may own it and
/// take its time to answer). Threading: main thread only; `done` runs there.
@MainActor
public enum ClipboardText {
    public static func read(for widget: UnsafeMutablePointer<GtkWidget>, _ done: @escaping @MainActor (String?) -> Void) {
        guard let clipboard = gtk_widget_get_clipboard(widget) else { return done(nil) }
        let box = Unmanaged.passRetained(Signal.Box<@MainActor (String?) -> Void>(done)).toOpaque()
        gdk_clipboard_read_text_async(clipboard, nil, { source, result, data in
            let box = Unmanaged<Signal.Box<@MainActor (String?) -> Void>>.fromOpaque(data!).takeRetainedValue()
            // No text (an image, files, nothing) is an error here, and only means "none".
            let text = GString.take(gdk_clipboard_read_text_finish(OpaquePointer(source), result, nil))
            MainActor.assumeIsolated { box.handler(text) }
        }, box)
    }
}
