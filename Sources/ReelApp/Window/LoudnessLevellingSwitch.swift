import ReelEngine
import ReelGtk

/// Loudness levelling from the window. The Audio menu's Level Loudness check item (in the main
/// menu and the picture's, which share the submenu) and the preferences' switch are one setting,
/// `level-loudness`, kept across runs; the player follows it at start and at every change,
/// whoever made it (the menu, the preferences, `gsettings`). The check mark follows the player
/// model, and a switch from the menu says so over the picture.
/// Threading: main thread only.
@MainActor
final class LoudnessLevellingSwitch {
    private let view: PlayerView
    private var action: OpaquePointer?
    private var following: ObservationToken?

    init(view: PlayerView) {
        self.view = view
        let settings = view.settings
        view.player.setLevelling(settings.bool(.levelLoudness))
        settings.observe { [weak view] key in
            guard key == .levelLoudness else { return }
            view?.player.setLevelling(settings.bool(.levelLoudness))
        }
        following = view.model.observe(\.sound.isLevelling) { [weak self] on in
            guard let action = self?.action else { return }
            Actions.setState(action, bool: on)
        }
    }

    func installActions(_ group: UnsafeMutableRawPointer) {
        action = Actions.addToggle(group, "level-loudness", initial: view.model.sound.isLevelling) { [weak self] in
            guard let self else { return }
            let on = !self.view.settings.bool(.levelLoudness)
            self.view.settings.set(.levelLoudness, on)
            self.view.billboard.show(on ? tr("Loudness levelling on") : tr("Loudness levelling off"),
                                     icon: "audio-volume-high-symbolic")
        }
    }
}
