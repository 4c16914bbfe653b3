import CGtk
import ReelEngine

/// The elapsed time and, beside it, the total or remaining time (a click switches them, and
/// the choice is kept in the settings); during a break, the break's own time.
/// Threading: main thread only.
@MainActor
final class TimeLabels {
    private let elapsed: UnsafeMutablePointer<GtkWidget>
    private let total: UnsafeMutablePointer<GtkWidget>
    private let totalButton: UnsafeMutablePointer<GtkWidget>
    private let settings: PlayerSettings
    /// The user switched between total and remaining time (keeps the controls up).
    var activity: (@MainActor () -> Void)?

    init(builder: UIBuilder, settings: PlayerSettings) {
        elapsed = builder.widget("elapsed-label")
        total = builder.widget("duration-label")
        totalButton = builder.widget("duration-button")
        self.settings = settings
        Signal.connect(totalButton.raw, "clicked") { [weak self] in
            guard let self else { return }
            self.settings.showRemaining.toggle()
            self.activity?()
        }
    }

    /// The media's time at `position`; what is left is counted in real time at `speed`.
    func show(position: Double, duration: Double?, frameRate: Double?, speed: Double) {
        let options = settings.timeOptions
        gtk_label_set_text(elapsed.cast(),
                           TimeText.elapsed(position, reference: duration, frameRate: frameRate, options: options))
        guard let duration else {
            gtk_label_set_text(total.cast(), "--:--")
            return
        }
        if settings.showRemaining {
            // At 2× the rest of the film takes half as long.
            let left = max(0, duration - position) / max(speed, 0.01)
            gtk_label_set_text(total.cast(), TimeText.remaining(position: 0, duration: left,
                                                                frameRate: frameRate, options: options))
            Accessibility.setLabel(totalButton, tr("Time remaining"))
        } else {
            gtk_label_set_text(total.cast(), TimeText.elapsed(duration, reference: duration,
                                                              frameRate: frameRate, options: options))
            Accessibility.setLabel(totalButton, tr("Total time"))
        }
    }

    /// A break's own time: how far in, and what is left of it.
    func showBreak(position: Double, length: Double?) {
        gtk_label_set_text(elapsed.cast(), TimeText.elapsed(position, reference: length))
        if let length {
            gtk_label_set_text(total.cast(), TimeText.remaining(position: position, duration: length))
        } else {
            gtk_label_set_text(total.cast(), "--:--")
        }
        Accessibility.setLabel(totalButton, tr("Break time remaining"))
    }
}
