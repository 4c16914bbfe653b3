import CGtk
import ReelEngine
import ReelGtk

/// Keeps the screensaver and screen blanking away while video plays (not for sound alone, and
/// not while paused).
/// Threading: main thread only.
@MainActor
final class IdleInhibitor {
    private let application: OpaquePointer
    private let window: UnsafeMutablePointer<GtkWidget>
    private var cookie: guint = 0

    init(application: OpaquePointer, window: UnsafeMutablePointer<GtkWidget>) {
        self.application = application
        self.window = window
    }

    var isInhibiting: Bool { cookie != 0 }

    func set(_ inhibit: Bool) {
        if inhibit && cookie == 0 {
            cookie = gtk_application_inhibit(application.cast(), window.cast(), GTK_APPLICATION_INHIBIT_IDLE, tr("Playing a video"))
        } else if !inhibit && cookie != 0 {
            gtk_application_uninhibit(application.cast(), cookie)
            cookie = 0
        }
    }
}
