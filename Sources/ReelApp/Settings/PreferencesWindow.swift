import CGtk
import ReelEngine
import ReelGtk

/// The preferences window (ui/preferences.ui): libadwaita's preferences window, pages of rows
/// each bound to its GSettings key both ways, so a change applies at once everywhere and is
/// kept, and a change made elsewhere shows in the row.
/// Threading: main thread only.
@MainActor
final class PreferencesWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    private let builder: UIBuilder
    /// The combo rows' bindings hold them weakly: kept here for the window's life.
    private var choiceRows: [ChoiceRow] = []

    init(settings: PlayerSettings) {
        builder = UIBuilder(.preferences)
        window = builder.widget("preferences-window")
        let bindings: [(key: String, id: String, property: String)] = [
            ("autoplay", "autoplay-switch", "active"),
            ("remember-queue", "remember-queue-switch", "active"),
            ("background-playback", "background-switch", "active"),
            ("controls-display-duration", "display-duration-adjustment", "value"),
            ("display-controls-on-tap", "tap-switch", "active"),
            ("dont-hide-controls", "never-hide-switch", "active"),
            ("show-remaining", "remaining-switch", "active"),
            ("remaining-minus-sign", "minus-switch", "active"),
            ("always-show-hours", "hours-switch", "active"),
            ("show-frames", "frames-switch", "active"),
            ("time-refresh-interval", "refresh-interval-adjustment", "value"),
            ("subtitle-outline", "subtitle-outline-switch", "active"),
            ("subtitle-background", "subtitle-background-switch", "active"),
            ("subtitle-position", "subtitle-position-adjustment", "value"),
            ("subtitle-override-ass", "subtitle-override-switch", "active"),
            ("subtitle-languages", "subtitle-languages-entry", "text"),
            ("audio-languages", "audio-languages-entry", "text"),
            ("save-picture-subtitles", "save-subtitles-switch", "active"),
            ("stream-cache", "cache-switch", "active"),
            ("stream-cache-limit", "cache-limit-adjustment", "value"),
        ]
        for binding in bindings {
            settings.bind(binding.key, to: builder.object(binding.id), property: binding.property)
        }
        let choices: [(key: String, id: String, choices: [PreferenceChoice])] = [
            ("resume-playback", "resume-combo", PreferenceChoices.resumePlayback),
            ("video-output", "video-output-combo", PreferenceChoices.videoOutput),
            ("subtitle-size", "subtitle-size-combo", PreferenceChoices.subtitleSize),
        ]
        choiceRows = choices.map { ChoiceRow(builder.object($0.id), key: $0.key, choices: $0.choices, settings: settings) }
        // The engine reads an encoding's name in any case, with spaces around it.
        choiceRows.append(ChoiceRow(builder.object("subtitle-charset-combo"), key: "subtitle-charset",
                                    choices: PreferenceChoices.subtitleCharset, settings: settings, loose: true))
        bindFont(settings)
        bindColor(settings)
    }

    private func bindFont(_ settings: PlayerSettings) {
        let button = builder.widget("subtitle-font-button")
        settings.bind("subtitle-font", to: button, property: "font", mapping: SettingMapping(
            toProperty: { .text(SubtitleFontName.description(ofFamily: $0)) },
            toKey: { value in
                guard case .text(let description) = value else { return nil }
                return SubtitleFontName.family(fromDescription: description)
            }))
        nameInnerButton(of: button, tr("Font"))
    }

    private func bindColor(_ settings: PlayerSettings) {
        let button = builder.widget("subtitle-color-button")
        settings.bind("subtitle-color", to: button, property: "rgba", mapping: SettingMapping(
            toProperty: { .color(SubtitleColorText.rgba(fromKey: $0)) },
            toKey: { value in
                guard case .color(let color) = value else { return nil }
                return SubtitleColorText.key(from: color)
            }))
        nameInnerButton(of: button, tr("Text colour"))
    }

    /// GTK 4.8's font and colour buttons are a box around the button that takes the click and
    /// the focus, and only the box is named by the row: the button itself gets the row's name.
    private func nameInnerButton(of widget: UnsafeMutablePointer<GtkWidget>, _ name: String) {
        guard let inner = gtk_widget_get_first_child(widget) else { return }
        Accessibility.setLabel(inner, name)
    }

    func present(over parent: UnsafeMutablePointer<GtkWidget>?) {
        if let parent { gtk_window_set_transient_for(window.cast(), parent.cast()) }
        gtk_window_present(window.cast())
    }
}
