import ReelGtk

/// The app's timers are GLib's (the main loop Reel runs in), not Foundation's run-loop timers,
/// which never fire under GLib: the name means ReelGtk's everywhere in the app.
/// Threading: main thread only, as ReelGtk.Timer.
typealias Timer = ReelGtk.Timer
