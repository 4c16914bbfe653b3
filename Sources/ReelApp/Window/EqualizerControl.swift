import CGtk
import ReelEngine
import ReelGtk

/// The video equalizer from the window: mpv's keys `1`–`8` (contrast, brightness, gamma and
/// saturation down and up), the sliders in the Picture menu's Colours submenu (hue too) and
/// Reset Colours, all changing the model's `equalizer`, which both drawing paths and Save
/// Picture read. A key step says the new value on the billboard. The setting lasts the session,
/// across files, as mpv's does. Threading: main thread only.
@MainActor
final class EqualizerControl {
    private unowned let view: PlayerView
    private var panels: [EqualizerPanel] = []
    private var following: ObservationToken?

    init(view: PlayerView) {
        self.view = view
        following = view.model.observe { [weak self] change in
            guard let self, change.contains(.equalizer) else { return }
            for panel in self.panels { panel.show(self.view.model.equalizer) }
        }
    }

    private var equalizer: Equalizer {
        get { view.model.equalizer }
        set { view.model.equalizer = newValue }
    }

    func installActions(_ group: UnsafeMutableRawPointer) {
        Actions.add(group, "colours-menu") {}
        Actions.add(group, "reset-colours") { [weak self] in self?.reset() }
    }

    /// Puts a panel of sliders where `popover` (a GtkPopoverMenu built from a menu holding the
    /// Colours submenu) has its custom "equalizer" item.
    func addPanel(to popover: UnsafeMutableRawPointer) {
        let panel = EqualizerPanel()
        guard gtk_popover_menu_add_child(OpaquePointer(popover), panel.widget, "equalizer") != 0
        else { return }
        panel.changed = { [weak self] control, value in self?.set(control, to: value) }
        panel.resetAll = { [weak self] in self?.reset() }
        panel.show(equalizer)
        panels.append(panel)
    }

    /// A key's step: one unit, as mpv's keys.
    func step(_ control: Equalizer.Control, by steps: Int) {
        equalizer = equalizer.stepped(control, by: steps)
        view.billboard.show(Self.text(control, equalizer[control]))
    }

    func set(_ control: Equalizer.Control, to value: Int) {
        var next = equalizer
        next[control] = value
        equalizer = next
    }

    func reset() {
        guard !equalizer.isNeutral else { return }
        equalizer = .neutral
        view.billboard.show(tr("Colours reset"))
    }

    /// "Colours: contrast +20, hue −5": the controls that are not at 0, for the info card.
    static func summary(_ equalizer: Equalizer) -> String {
        let parts = Equalizer.Control.allCases.filter { equalizer[$0] != 0 }.map { control -> String in
            let value = equalizer[control]
            let name = switch control {
            // Translators: the equalizer's controls as the info card lists them, after "Colours: ".
            case .contrast: tr("contrast")
            case .brightness: tr("brightness")
            case .gamma: tr("gamma")
            case .saturation: tr("saturation")
            case .hue: tr("hue")
            }
            return name + " " + (value > 0 ? "+\(value)" : "\(value)")
        }
        // Translators: %@ lists the video equalizer's settings, as "contrast +20, hue -5".
        return String(format: tr("Colours: %@"), parts.joined(separator: ", "))
    }

    /// "Contrast: +5", as the billboard says it.
    static func text(_ control: Equalizer.Control, _ value: Int) -> String {
        let signed = value > 0 ? "+\(value)" : "\(value)"
        return switch control {
        // Translators: %@ is the equalizer's value, from −100 to +100 (0: unchanged).
        case .contrast: String(format: tr("Contrast: %@"), signed)
        case .brightness: String(format: tr("Brightness: %@"), signed)
        case .gamma: String(format: tr("Gamma: %@"), signed)
        case .saturation: String(format: tr("Saturation: %@"), signed)
        case .hue: String(format: tr("Hue: %@"), signed)
        }
    }
}
