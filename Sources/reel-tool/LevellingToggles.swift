import Foundation
import ReelEngine

/// `reel-tool play --toggle-levelling-at`: the media times at which loudness levelling is
/// switched over while playing (to hear, record or measure the switch without a window).
/// Threading: `passed` from the player's control thread; the times are locked.
final class LevellingToggles: @unchecked Sendable {
    // Safe: `times` is guarded by `lock`.
    private let lock = NSLock()
    private var times: [Double]

    init(_ times: [Double]) { self.times = times.sorted() }

    /// Playback reached `position`: switches levelling over once for each time passed.
    func passed(_ position: Double, player: (any PlaybackController)?) {
        lock.lock()
        var due = 0
        while let first = times.first, first <= position { times.removeFirst(); due += 1 }
        lock.unlock()
        guard due % 2 == 1, let player else { return }
        player.setLevelling(!player.isLevelling)
    }
}
