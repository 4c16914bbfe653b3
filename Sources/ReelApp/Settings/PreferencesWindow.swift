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
        let bindings: [(key: SettingKey, id: String, property: String)] = [
            (.autoplay, "autoplay-switch", "active"),
            (.rememberQueue, "remember-queue-switch", "active"),
            (.rememberRecent, "remember-recent-switch", "active"),
            (.backgroundPlayback, "background-switch", "active"),
            (.controlsDisplayDuration, "display-duration-adjustment", "value"),
            (.displayControlsOnTap, "tap-switch", "active"),
            (.dontHideControls, "never-hide-switch", "active"),
            (.hideControlsWhilePaused, "hide-paused-switch", "active"),
            (.showRemaining, "remaining-switch", "active"),
            (.remainingMinusSign, "minus-switch", "active"),
            (.alwaysShowHours, "hours-switch", "active"),
            (.showFrames, "frames-switch", "active"),
            (.timeRefreshInterval, "refresh-interval-adjustment", "value"),
            (.subtitleOutline, "subtitle-outline-switch", "active"),
            (.subtitleBackground, "subtitle-background-switch", "active"),
            (.subtitleOverrideAss, "subtitle-override-switch", "active"),
            (.subtitleLanguages, "subtitle-languages-entry", "text"),
            (.audioLanguages, "audio-languages-entry", "text"),
            (.levelLoudness, "level-loudness-switch", "active"),
            (.savePictureSubtitles, "save-subtitles-switch", "active"),
            (.streamCache, "cache-switch", "active"),
            (.streamCacheLimit, "cache-limit-adjustment", "value"),
        ]
        for binding in bindings {
            settings.bind(binding.key, to: builder.object(binding.id), property: binding.property)
        }
        // A fraction in the key, percent in the row.
        settings.bind(.subtitlePosition, to: builder.object("subtitle-position-adjustment"), property: "value", scale: 100)
        let choices: [(key: SettingKey, id: String, choices: [PreferenceChoice])] = [
            (.resumePlayback, "resume-combo", PreferenceChoices.resumePlayback),
            (.videoOutput, "video-output-combo", PreferenceChoices.videoOutput),
            (.subtitleSize, "subtitle-size-combo", PreferenceChoices.subtitleSize),
        ]
        choiceRows = choices.map { ChoiceRow(builder.object($0.id), key: $0.key, choices: $0.choices, settings: settings) }
        // The engine reads an encoding's name in any case, with spaces around it.
        choiceRows.append(ChoiceRow(builder.object("subtitle-charset-combo"), key: .subtitleCharset,
                                    choices: PreferenceChoices.subtitleCharset, settings: settings, loose: true))
        bindFont(settings)
        bindColor(settings)
    }

    private func bindFont(_ settings: PlayerSettings) {
        let button = builder.widget("subtitle-font-button")
        settings.bind(.subtitleFont, to: button, property: "font", mapping: SettingMapping(
            toProperty: { .text(SubtitleFontName.description(ofFamily: $0)) },
            toKey: { value in
                guard case .text(let description) = value else { return nil }
                return SubtitleFontName.family(fromDescription: description)
            }))
        nameInnerButton(of: button, tr("Font"))
    }

    private func bindColor(_ settings: PlayerSettings) {
        let button = builder.widget("subtitle-color-button")
        settings.bind(.subtitleColor, to: button, property: "rgba", mapping: SettingMapping(
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
