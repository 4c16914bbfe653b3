import ReelEngine
import ReelGtk

/// Deinterlacing from the window: the `d` key and the picture menu's item cycle auto → on →
/// off (mpv's `d`), the billboard says which, and the menu item names the mode now.
/// Threading: main thread only.
extension PlayerWindow {
    /// Steps from the mode last asked for, so quick presses do not wait for the engine.
    func cycleDeinterlace() {
        guard let pictures = playerView.pictures else { return }
        let mode = requestedDeinterlace.next
        requestedDeinterlace = mode
        pictures.setDeinterlace(mode)
        playerView.billboard.deinterlace(mode)
        gestures?.follow(playing: playerView.model.isPlaying, fullscreen: isFullscreen, deinterlace: mode)
    }
}
