import Foundation
import ReelEngine
import ReelGtk

/// The A-B loop from the window: Shift+L and the menus' item set the start where playback is,
/// then the end, then clear it (`LoopSpan.cycled`); the billboard says what it is now. The
/// player holds the loop and says so; the model, and through it the scrubber's band and the
/// menus' label, follow what it says.
/// Threading: main thread only.
extension PlayerWindow {
    func cycleLoop() {
        let model = playerView.model
        guard model.hasMedia, !model.inBreak else { return }
        let span = LoopSpan.cycled(model.loop, at: model.livePosition(now: Clock.now))
        playerView.player.setLoop(span)
        playerView.billboard.loop(span, duration: model.duration)
    }
}
