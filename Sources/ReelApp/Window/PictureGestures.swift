import CGtk
import ReelEngine
import ReelGtk

/// The everyday gestures on the picture: a right click opens the picture's menu (so do the
/// Menu key and Shift+F10, through the header's keys), the scroll wheel changes the volume,
/// with Ctrl zooms the picture, and, sideways or with Shift, seeks (as the arrow keys do, with their billboards); and
/// previous and next buttons beside the play button while the queue holds more than one item.
/// Threading: main thread only.
@MainActor
final class PictureGestures {
    private weak var window: PlayerWindow?
    private let menu: PictureMenu
    private var steps = ScrollSteps()
    private let itemButtons: [UnsafeMutablePointer<GtkWidget>]

    init(window: PlayerWindow, builder: UIBuilder) {
        self.window = window
        let view = window.playerView
        menu = PictureMenu(builder: builder)
        view.setContextMenu(menu.model)

        let previous: UnsafeMutablePointer<GtkWidget> = builder.widget("previous-item-button")
        let next: UnsafeMutablePointer<GtkWidget> = builder.widget("next-item-button")
        view.addAroundPlayButton(before: previous, after: next)
        itemButtons = [previous, next]

        let scroll = gtk_event_controller_scroll_new(GtkEventControllerScrollFlags(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES.rawValue))!
        // The handler goes with the controller: its pointer is good whenever the handler runs.
        Signal.connectScroll(scroll.raw) { [weak self] dx, dy in
            let unit: ScrollSteps.Unit = gtk_event_controller_scroll_get_unit(scroll) == GDK_SCROLL_UNIT_WHEEL ? .wheel : .pixels
            let state = gtk_event_controller_get_current_event_state(scroll.cast()).rawValue
            self?.scrolled(dx: dx, dy: dy, unit: unit, shift: state & GDK_SHIFT_MASK.rawValue != 0,
                           control: state & GDK_CONTROL_MASK.rawValue != 0)
            return true
        }
        gtk_widget_add_controller(view.movie.area, scroll.cast())
    }

    /// Volume and seek steps, through what the keys do, while their actions can act.
    private func scrolled(dx: Double, dy: Double, unit: ScrollSteps.Unit, shift: Bool, control: Bool) {
        guard let window else { return }
        switch steps.scrolled(dx: dx, dy: dy, unit: unit, shift: shift, control: control) {
        case .zoom(let count) where window.canAct("zoom-in"):
            window.picture?.zoom(by: count)
        case .volume(let count) where window.canAct("volume-up"):
            KeyAction.changeVolume(window, by: Double(count) * KeyAction.volumeStep)
        case .seek(let count) where window.canAct("seek-forward"):
            KeyAction.seek(window, by: Double(count) * KeyAction.seekStep)
        default:
            break
        }
    }

    /// Previous and next show while the queue holds more than one item (they are as sensitive
    /// as their actions: no next at the end of a queue that does not loop).
    func followQueue(items: Int) {
        for button in itemButtons { gtk_widget_set_visible(button, items > 1 ? 1 : 0) }
    }

    /// The picture's menu names play or pause, fullscreen and deinterlacing for what they do
    /// or are now.
    func follow(playing: Bool, fullscreen: Bool, deinterlace: DeinterlaceMode) {
        menu.update(playing: playing, fullscreen: fullscreen, deinterlace: deinterlace)
    }
}
