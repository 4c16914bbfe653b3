import CGtk

/// When the controls (and the host's fading overlays) show: `ControlsVisibility` decides, fed
/// with the pointer (PlayerView+Input), a pause from the model, and time; this applies its
/// answer to the widgets and the model.
/// Threading: main thread only.
extension PlayerView {
    /// Shows the controls as if the pointer moved (keyboard seeking wants them, briefly).
    public func revealControls() {
        visibility.show(now: Clock.now)
        applyVisibility()
    }

    public var controlsVisible: Bool { visibility.visible }

    /// Paused by the person or at the end, with a picture to look at: the controls come up and
    /// stay (ControlsVisibility). The pauses a scan makes are not the person's: while one runs,
    /// what was paused stays so.
    func followPause() {
        guard !model.timeline.isScanning else { return }
        let paused = (model.state == .ready || model.state == .ended) && model.pictureShown
        guard paused != visibility.paused else { return }
        visibility.playbackPaused(paused, now: Clock.now)
        applyVisibility()
    }

    func applyVisibility() {
        let state = model.state
        visibility.hasMedia = state.hasMedia || state == .loading || state == .suspended
        let visible = visibility.barShown
        gtk_revealer_set_reveal_child(controls.revealer.cast(), visible ? 1 : 0)
        // Hidden controls must not take clicks meant for the picture.
        gtk_widget_set_can_target(controls.revealer, visible ? 1 : 0)
        preview.setControlsShown(visible)
        // Up, the scrubber says where a seek went: the billboard need not.
        if visible && billboard.showsSeek { billboard.hide() }
        fadingOverlays.show(visibility.overlaysShown)
        // The pointer goes with the last of the chrome (the status page keeps it).
        gtk_widget_set_cursor_from_name(widget, isFullscreen && !visibility.overlaysShown ? "none" : nil)
        model.controlsVisible = visible
        hideTimer?.cancel()
        hideTimer = nil
        if let deadline = visibility.hideAt {
            hideTimer = Timer.once(after: max(0.01, deadline - Clock.now)) { [weak self] in
                guard let self else { return }
                self.visibility.tick(now: Clock.now)
                self.applyVisibility()
            }
        }
    }
}
