import CGtk
import ReelEngine

/// The bar's volume slider and mute toggle: they set the player's volume and keep it in the
/// settings, and follow the player when something else (a key, MPRIS) changes it.
/// Threading: main thread only.
@MainActor
final class VolumeControl {
    let slider: UnsafeMutablePointer<GtkWidget>
    private let muteButton: UnsafeMutablePointer<GtkWidget>
    /// Set while the widgets are moved to what the player says, so that moving them is not
    /// taken for the user's hand and sent back.
    private var followingPlayer = false
    /// The user moved the slider or toggled mute (keeps the controls up).
    var activity: (@MainActor () -> Void)?

    init(builder: UIBuilder, player: PlaybackController, settings: PlayerSettings) {
        slider = builder.widget("volume-button")
        muteButton = builder.widget("mute-button")
        gtk_scale_button_set_value(slider.cast(), settings.volume)
        gtk_toggle_button_set_active(muteButton.cast(), settings.muted ? 1 : 0)
        player.setVolume(settings.volume)
        player.setMuted(settings.muted)
        Signal.connect(gtk_scale_button_get_adjustment(slider.cast()).raw, "value-changed") { [weak self] in
            guard let self, !self.followingPlayer else { return }
            let value = gtk_scale_button_get_value(self.slider.cast())
            player.setVolume(value)
            settings.volume = value
            self.activity?()
        }
        Signal.connect(muteButton.raw, "toggled") { [weak self] in
            guard let self, !self.followingPlayer else { return }
            let muted = gtk_toggle_button_get_active(self.muteButton.cast()) != 0
            player.setMuted(muted)
            settings.muted = muted
            self.activity?()
        }
    }

    /// The slider's pop-up, which keeps the controls up while it is open.
    var popup: UnsafeMutablePointer<GtkWidget>? { gtk_scale_button_get_popup(slider.cast()) }

    /// Shows what the player now plays at.
    func show(volume: Double, muted: Bool) {
        followingPlayer = true
        gtk_scale_button_set_value(slider.cast(), volume)
        gtk_toggle_button_set_active(muteButton.cast(), muted ? 1 : 0)
        followingPlayer = false
    }
}
