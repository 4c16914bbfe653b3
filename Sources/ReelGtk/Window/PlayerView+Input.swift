import CGtk

/// What the pointer does over the view: moving shows the controls, resting over them (or over
/// an overlay that fades with them) keeps them, a tap toggles them, a double click is the host's.
/// Threading: main thread only.
extension PlayerView {
    func wireVisibility() {
        let motion = gtk_event_controller_motion_new()!
        Signal.connectPoint(motion.raw, "motion") { [weak self] x, y in
            self?.visibility.pointerMoved(x: x, y: y, now: Clock.now)
            self?.applyVisibility()
        }
        Signal.connectPoint(motion.raw, "enter") { [weak self] x, y in
            self?.visibility.pointerMoved(x: x, y: y, now: Clock.now)
        }
        Signal.connect(motion.raw, "leave") { [weak self] in self?.visibility.pointerLeft() }
        gtk_widget_add_controller(widget, motion.cast())

        let overControls = gtk_event_controller_motion_new()!
        Signal.connectPoint(overControls.raw, "enter") { [weak self] _, _ in
            self?.visibility.pointerOverControls(true, now: Clock.now)
            self?.applyVisibility()
        }
        Signal.connect(overControls.raw, "leave") { [weak self] in
            self?.visibility.pointerOverControls(false, now: Clock.now)
            self?.applyVisibility()
        }
        gtk_widget_add_controller(controls.bar, overControls.cast())
        fadingOverlays.pointerOver = { [weak self] over in
            self?.visibility.pointerOverControls(over, now: Clock.now)
            self?.applyVisibility()
        }
        fadingOverlays.popoverChanged = { [weak self] open in
            self?.visibility.popover(open, now: Clock.now)
            self?.applyVisibility()
        }
        controls.scrubbingChanged = { [weak self] held in
            self?.visibility.scrubbing(held, now: Clock.now)
            self?.applyVisibility()
            if !held { self?.preview.scrubberReleased() }
        }
        controls.activity = { [weak self] in
            self?.visibility.show(now: Clock.now)
            self?.applyVisibility()
        }

        // A tap toggles the controls; a double click is the window's (fullscreen). The tap
        // waits for the double-click time so the first click of a double does not flash them.
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click.cast(), reel_button_primary())
        Signal.connectPress(click.raw, "pressed") { [weak self] presses, _, _ in
            guard let self else { return }
            gtk_widget_grab_focus(self.movie.area)
            if presses >= 2 {
                self.tapTimer?.cancel()
                self.tapTimer = nil
                self.doubleClicked?()
                return
            }
            self.tapTimer = Timer.once(after: Self.doubleClickTime) { [weak self] in
                guard let self else { return }
                self.visibility.tapped(now: Clock.now)
                self.applyVisibility()
            }
        }
        gtk_widget_add_controller(movie.area, click.cast())
    }

    private static var doubleClickTime: Double {
        guard let settings = gtk_settings_get_default() else { return 0.4 }
        return Double(reel_object_get_int(settings.raw, "gtk-double-click-time")) / 1000
    }
}
