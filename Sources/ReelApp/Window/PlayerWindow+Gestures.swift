import CGtk
import ReelGtk

/// The everyday gestures on the picture: a right click opens the picture's menu (so do the
/// Menu key and Shift+F10), the scroll wheel changes the volume and, sideways or with Shift,
/// seeks (as the arrow keys do, with their billboards); and previous and next buttons beside
/// the play button while the queue holds more than one item.
/// Threading: main thread only.
extension PlayerWindow {
    func installGestures(_ builder: UIBuilder) {
        let menu = PictureMenu(builder: builder)
        pictureMenu = menu
        playerView.setContextMenu(menu.model)

        let scroll = gtk_event_controller_scroll_new(GtkEventControllerScrollFlags(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES.rawValue))!
        // The handler goes with the controller: its pointer is good whenever the handler runs.
        Signal.connectScroll(scroll.raw) { [weak self] dx, dy in
            guard let self else { return false }
            let unit: ScrollSteps.Unit = gtk_event_controller_scroll_get_unit(scroll) == GDK_SCROLL_UNIT_WHEEL ? .wheel : .pixels
            let shift = gtk_event_controller_get_current_event_state(scroll.cast()).rawValue & GDK_SHIFT_MASK.rawValue != 0
            switch self.scrollSteps.scrolled(dx: dx, dy: dy, unit: unit, shift: shift) {
            case .volume(let steps) where self.canAct("volume-up"):
                KeyAction.changeVolume(self, by: Double(steps) * KeyAction.volumeStep)
            case .seek(let steps) where self.canAct("seek-forward"):
                KeyAction.seek(self, by: Double(steps) * KeyAction.seekStep)
            default:
                break
            }
            return true
        }
        gtk_widget_add_controller(playerView.movie.area, scroll.cast())

        let previous: UnsafeMutablePointer<GtkWidget> = builder.widget("previous-item-button")
        let next: UnsafeMutablePointer<GtkWidget> = builder.widget("next-item-button")
        playerView.addAroundPlayButton(before: previous, after: next)
        itemButtons = [previous, next]
    }

    /// Whether the window's action `name` is enabled now (`ActionAvailability`).
    private func canAct(_ name: String) -> Bool {
        g_action_group_get_action_enabled(OpaquePointer(window), name) != 0
    }

    /// Previous and next show while the queue holds more than one item (they are as sensitive
    /// as their actions: no next at the end of a queue that does not loop).
    func updateItemButtons() {
        let several = queue.queue.items.count > 1
        for button in itemButtons { gtk_widget_set_visible(button, several ? 1 : 0) }
    }

    /// The picture's menu names play or pause and fullscreen for what they do now.
    func updatePictureMenu() {
        pictureMenu?.update(playing: playerView.model.isPlaying, fullscreen: isFullscreen)
    }
}
