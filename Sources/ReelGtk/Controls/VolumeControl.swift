import CGtk
import ReelEngine

/// The bar's one volume button, as GNOME's players have it (Showtime, Clapper): its icon says
/// the level, or that the sound is muted; its popover holds the mute toggle (named for what it
/// does now: Mute, or Unmute) and the level. Moving them sets the player's volume and keeps it
/// in the settings; everything drawn follows the model's sound, whoever changed it (a key, the
/// remote, the popover).
/// Threading: main thread only.
@MainActor
final class VolumeControl {
    let button: UnsafeMutablePointer<GtkWidget>
    private let muteButton: UnsafeMutablePointer<GtkWidget>
    private let adjustment: UnsafeMutablePointer<GtkAdjustment>
    /// Set while the widgets are moved to what the model says, so that moving them is not
    /// taken for the user's hand and sent back.
    private var followingModel = false
    /// The user moved the level or toggled mute (keeps the controls up).
    var activity: (@MainActor () -> Void)?

    init(builder: UIBuilder, player: PlaybackController, settings: PlayerSettings) {
        button = builder.widget("volume-button")
        muteButton = builder.widget("mute-button")
        adjustment = builder.object("volume-adjustment").cast()
        player.setVolume(settings.volume)
        player.setMuted(settings.muted)
        show(volume: settings.volume, muted: settings.muted)
        Signal.connect(adjustment.raw, "value-changed") { [weak self] in
            guard let self, !self.followingModel else { return }
            let value = gtk_adjustment_get_value(self.adjustment)
            player.setVolume(value)
            settings.volume = value
            self.activity?()
        }
        Signal.connect(muteButton.raw, "toggled") { [weak self] in
            guard let self, !self.followingModel else { return }
            let muted = gtk_toggle_button_get_active(self.muteButton.cast()) != 0
            player.setMuted(muted)
            settings.muted = muted
            self.activity?()
        }
    }

    /// The popover, which keeps the controls up while it is open.
    var popup: UnsafeMutablePointer<GtkWidget>? { gtk_menu_button_get_popover(button.cast())?.cast() }

    /// Shows what the player now plays at.
    func show(volume: Double, muted: Bool) {
        followingModel = true
        defer { followingModel = false }
        gtk_adjustment_set_value(adjustment, volume)
        gtk_toggle_button_set_active(muteButton.cast(), muted ? 1 : 0)
        let icon = VolumeIcon.name(level: volume, muted: muted)
        gtk_menu_button_set_icon_name(button.cast(), icon)
        gtk_widget_set_tooltip_text(button, Billboard.volumeText(volume, muted: muted))
        Accessibility.setLabel(button, muted ? tr("Volume, muted") : tr("Volume"))
        // The toggle shows the sound as it is (a speaker, or a crossed-out one) and is named
        // for what a press does.
        gtk_button_set_icon_name(muteButton.cast(), muted ? "audio-volume-muted-symbolic" : icon)
        Accessibility.setLabel(muteButton, muted ? tr("Unmute") : tr("Mute"))
        gtk_widget_set_tooltip_text(muteButton, muted ? tr("Unmute (M)") : tr("Mute (M)"))
    }
}
