import CGtk
import Foundation
import ReelEngine

/// What a key just changed (the volume, the speed, a delay, a track, the position), shown for a
/// moment over the centre of the picture with an icon, as mpv's OSD and Clapper's billboard
/// do: someone watching looks at the picture. A seek also shows a slim bar of where it went in
/// the whole media (mpv's OSD bar). A new message replaces the one showing and starts its time
/// again, so held keys read as one steady display. It takes no clicks.
/// Threading: main thread only.
@MainActor
public final class Billboard {
    private let revealer: UnsafeMutablePointer<GtkWidget>
    private let icon: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let bar: UnsafeMutablePointer<GtkWidget>
    private var timer: Timer?
    /// What shows is a seek's time and bar (a seek landing updates it; other messages replace it).
    public private(set) var showsSeek = false
    private var seekForward = true
    /// How long a message stays (a preference: long enough to read a number, short enough
    /// not to sit over the film).
    public var seconds = 1.2

    init(builder: UIBuilder) {
        revealer = builder.widget("billboard")
        icon = builder.widget("billboard-icon")
        label = builder.widget("billboard-label")
        bar = builder.widget("billboard-bar")
    }

    /// The text on screen now (nil when nothing shows).
    public var text: String? {
        gtk_revealer_get_reveal_child(revealer.cast()) != 0 ? String(cString: gtk_label_get_text(label.cast())) : nil
    }

    /// Shows `text` with the symbolic icon named `icon` (none when nil).
    public func show(_ text: String, icon name: String? = nil) {
        showsSeek = false
        gtk_widget_set_visible(bar, 0)
        present(text, icon: name)
    }

    /// Shows where a seek goes (or went): `text` (its time) over a bar filled to `fraction` of
    /// the media (no bar when the length is not known); `forward` is the way it goes (nil: the
    /// way the seek showing went, for its landing).
    public func seek(_ text: String, fraction: Double?, forward: Bool?) {
        if let forward { seekForward = forward }
        showsSeek = true
        if let fraction {
            gtk_progress_bar_set_fraction(bar.cast(), min(1, max(0, fraction)))
            gtk_widget_set_visible(bar, 1)
        } else {
            gtk_widget_set_visible(bar, 0)
        }
        present(text, icon: seekForward ? "media-seek-forward-symbolic" : "media-seek-backward-symbolic")
    }

    private func present(_ text: String, icon name: String?) {
        gtk_label_set_text(label.cast(), text)
        gtk_image_set_from_icon_name(icon.cast(), name)
        gtk_widget_set_visible(icon, name == nil ? 0 : 1)
        gtk_revealer_set_reveal_child(revealer.cast(), 1)
        timer?.cancel()
        timer = Timer.once(after: seconds) { [weak self] in self?.hide() }
    }

    /// Fades it out, then empties it: what is not shown is not read out either (screen
    /// readers list the label while it exists).
    public func hide() {
        showsSeek = false
        gtk_revealer_set_reveal_child(revealer.cast(), 0)
        timer?.cancel()
        let fade = Double(gtk_revealer_get_transition_duration(revealer.cast())) / 1000
        timer = Timer.once(after: fade) { [weak self] in
            guard let self, gtk_revealer_get_reveal_child(self.revealer.cast()) == 0 else { return }
            gtk_label_set_text(self.label.cast(), "")
            gtk_widget_set_visible(self.bar, 0)
            self.timer = nil
        }
    }

    // MARK: The usual messages

    public func volume(_ level: Double, muted: Bool) {
        show(Self.volumeText(level, muted: muted), icon: VolumeIcon.name(level: level, muted: muted))
    }

    /// "Volume 75 %", or "Muted".
    static func volumeText(_ level: Double, muted: Bool) -> String {
        // Translators: %ld is the volume in percent.
        muted ? tr("Muted") : String(format: tr("Volume %ld %%"), Int((level * 100).rounded()))
    }

    /// "Deinterlacing: auto" (or on, or off): what the `d` key chose.
    public func deinterlace(_ mode: DeinterlaceMode) {
        let text = switch mode {
        case .auto: tr("Deinterlacing: auto")
        case .on: tr("Deinterlacing: on")
        case .off: tr("Deinterlacing: off")
        }
        show(text)
    }

    public func speed(_ speed: Double) {
        // Translators: %g is the playback speed, such as 1.5 (× means times).
        let text = abs(speed - 1) < 0.001 ? tr("Normal speed") : String(format: tr("Speed %g×"), speed)
        show(text, icon: speed < 1 ? "media-seek-backward-symbolic" : "media-seek-forward-symbolic")
    }
}
