import ReelEngine

/// Seeks through the player and tells the model what was asked for, so that a relative seek
/// made before the last one landed steps on from its target (a key pressed twice quickly goes
/// twice as far), as every seek of the view and its host does.
/// Threading: main thread only.
@MainActor
public struct Seeker {
    let player: PlaybackController
    let model: PlayerModel

    /// Seeks to `seconds`, within the media.
    public func seek(to seconds: Double, mode: SeekMode = .exact) {
        let target = min(max(0, seconds), model.duration ?? .infinity)
        model.seekRequested(to: target)
        player.seek(to: target, mode: mode)
    }

    /// Seeks `delta` seconds from where playback is (or from a seek that has not landed yet).
    public func seek(by delta: Double) {
        guard model.hasMedia else { return }
        seek(to: model.seekBase(now: Clock.now) + delta)
    }
}
