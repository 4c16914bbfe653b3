import ReelEngine

/// A click on the scrubber that shows its picture at once: when the pointer rests on the
/// scrubber for `rest` seconds, the engine decodes the exact picture there in the background
/// (`PlaybackController.prefetchPicture`), so that a press there shows it without waiting for an
/// exact seek's decoding. Moving on forgets the request; a hover that moves never asks.
/// Threading: main thread only.
@MainActor
final class ClickPrefetch {
    /// How long the pointer rests before the picture under it is worth decoding: longer than
    /// the gap between motion events of a moving hand, short against a hand about to click.
    static let rest = 0.15

    private let player: PlaybackController
    private var timer: Timer?
    private var asked: Double?

    init(player: PlaybackController) { self.player = player }

    /// The hover preview is at `time` (nil: it is gone, or the scrubber is held).
    func hover(at time: Double?) {
        timer?.cancel()
        timer = nil
        guard let time else { return forget() }
        if let asked, abs(asked - time) < 1e-9 { return }
        forget()
        timer = Timer.once(after: Self.rest) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.asked = time
            self.player.prefetchPicture(at: time)
        }
    }

    private func forget() {
        guard asked != nil else { return }
        asked = nil
        player.prefetchPicture(at: nil)
    }
}
