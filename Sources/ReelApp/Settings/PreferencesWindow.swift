import CGtk
import ReelGtk

/// The preferences window (ui/preferences.ui): every control bound to its GSettings key, so a
/// change applies at once everywhere and is kept.
/// Threading: main thread only.
@MainActor
final class PreferencesWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    private let builder: UIBuilder

    init(settings: PlayerSettings) {
        builder = UIBuilder(.preferences)
        window = builder.widget("preferences-window")
        let bindings: [(key: String, id: String, property: String)] = [
            ("autoplay", "autoplay-switch", "active"),
            ("resume-playback", "resume-combo", "active-id"),
            ("remember-queue", "remember-queue-switch", "active"),
            ("background-playback", "background-switch", "active"),
            ("video-output", "video-output-combo", "active-id"),
            ("controls-display-duration", "display-duration-adjustment", "value"),
            ("display-controls-on-tap", "tap-switch", "active"),
            ("dont-hide-controls", "never-hide-switch", "active"),
            ("show-remaining", "remaining-switch", "active"),
            ("remaining-minus-sign", "minus-switch", "active"),
            ("always-show-hours", "hours-switch", "active"),
            ("show-frames", "frames-switch", "active"),
            ("time-refresh-interval", "refresh-interval-adjustment", "value"),
            ("subtitle-size", "subtitle-size-combo", "active-id"),
            ("subtitle-font", "subtitle-font-entry", "text"),
            ("subtitle-color", "subtitle-color-entry", "text"),
            ("subtitle-outline", "subtitle-outline-switch", "active"),
            ("subtitle-background", "subtitle-background-switch", "active"),
            ("subtitle-position", "subtitle-position-adjustment", "value"),
            ("subtitle-override-ass", "subtitle-override-switch", "active"),
            ("subtitle-languages", "subtitle-languages-entry", "text"),
            ("subtitle-charset", "subtitle-charset-entry", "text"),
            ("audio-languages", "audio-languages-entry", "text"),
            ("save-picture-subtitles", "save-subtitles-switch", "active"),
            ("stream-cache", "cache-switch", "active"),
            ("stream-cache-limit", "cache-limit-adjustment", "value"),
        ]
        for binding in bindings {
            settings.bind(binding.key, to: builder.object(binding.id), property: binding.property)
        }
    }

    func present(over parent: UnsafeMutablePointer<GtkWidget>?) {
        if let parent { gtk_window_set_transient_for(window.cast(), parent.cast()) }
        gtk_window_present(window.cast())
    }
}
