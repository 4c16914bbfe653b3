import CGtk
import ReelEngine
import ReelGtk

/// The video equalizer's sliders (ui/equalizer.ui), one panel per menu that shows them (the
/// main menu's and the picture's, since a widget lives in one place): each slider and reset
/// button says what the person asked for through `changed`, and `show` puts the model's values
/// back on the sliders without that echoing back as a change.
/// Threading: main thread only.
@MainActor
final class EqualizerPanel {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// A control set to a value (a slider moved, or a reset button: 0).
    var changed: ((Equalizer.Control, Int) -> Void)?
    /// Reset Colours.
    var resetAll: (() -> Void)?
    private let builder = UIBuilder(.equalizer)
    private var scales: [Equalizer.Control: UnsafeMutablePointer<GtkWidget>] = [:]
    private var resets: [Equalizer.Control: UnsafeMutablePointer<GtkWidget>] = [:]
    private let resetAllButton: UnsafeMutablePointer<GtkWidget>
    /// Set while `show` moves the sliders, whose value-changed is then not the person's.
    private var showing = false

    init() {
        widget = builder.widget("equalizer-panel")
        resetAllButton = builder.widget("equalizer-reset-all")
        for control in Equalizer.Control.allCases {
            let scale = builder.widget("\(control.rawValue)-scale")
            let reset = builder.widget("\(control.rawValue)-reset")
            scales[control] = scale
            resets[control] = reset
            // 0, the picture as it is, marked so a slider can be brought back by eye.
            gtk_scale_add_mark(scale.cast(), 0, GTK_POS_BOTTOM, nil)
            Signal.connect(scale.raw, "value-changed") { [weak self] in
                guard let self, !self.showing else { return }
                self.changed?(control, Int(gtk_range_get_value(scale.cast()).rounded()))
            }
            Signal.connect(reset.raw, "clicked") { [weak self] in self?.changed?(control, 0) }
        }
        Signal.connect(resetAllButton.raw, "clicked") { [weak self] in self?.resetAll?() }
        show(.neutral)
    }

    /// The sliders at `equalizer`'s values; the resets sensitive where there is something to reset.
    func show(_ equalizer: Equalizer) {
        showing = true
        defer { showing = false }
        for control in Equalizer.Control.allCases {
            guard let scale = scales[control] else { continue }
            let value = Double(equalizer[control])
            if gtk_range_get_value(scale.cast()) != value { gtk_range_set_value(scale.cast(), value) }
            gtk_widget_set_sensitive(resets[control], equalizer[control] == 0 ? 0 : 1)
        }
        gtk_widget_set_sensitive(resetAllButton, equalizer.isNeutral ? 0 : 1)
    }
}
