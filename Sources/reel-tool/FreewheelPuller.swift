import Foundation
import ReelEngine

/// The decode bench's presenter: pulls pictures from a freewheeling player as fast as they
/// come and reports each new one.
///
/// Why not the engine's `HeadlessPresenter(rate: nil)`: it naps only while the player has no
/// picture at all, and `frame(for:)` keeps returning the one on screen, so after the first
/// picture it spins a whole core. On a two-core machine that core is taken from the decoder
/// (about a fifth of the throughput; BENCHMARKS.md has the figures; `--engine-presenter`
/// measures it). This one naps 1 ms whenever no new picture is waiting and drains without
/// pause while pictures are waiting, so the decoder, eight pictures ahead in its queue, never
/// waits for it. (200 µs naps cost 6 % of a core in wake-ups for nothing.)
///
/// Threading: pulls on its own thread; `start`/`stop` from one owner thread. `stopping` and
/// `running` are guarded by `condition`, hence @unchecked Sendable.
final class FreewheelPuller: @unchecked Sendable {
    private let player: Player
    private let onFrame: @Sendable (VideoFrame) -> Void
    private let condition = NSCondition()
    private var stopping = false
    private var running = false

    init(player: Player, onFrame: @escaping @Sendable (VideoFrame) -> Void) {
        self.player = player
        self.onFrame = onFrame
    }

    func start() {
        condition.lock(); stopping = false; running = true; condition.unlock()
        let thread = Thread { [self] in pull() }
        thread.name = "bench.pull"
        thread.start()
    }

    /// Returns once the pulling thread has finished.
    func stop() {
        condition.lock()
        stopping = true
        while running { condition.wait() }
        condition.unlock()
    }

    private func pull() {
        var last: VideoFrame?   // held, so a new picture can never reuse its address
        while true {
            condition.lock()
            let stop = stopping
            condition.unlock()
            if stop { break }
            if let frame = player.frame(for: .now), frame !== last {
                onFrame(frame)
                last = frame
            } else {
                usleep(1000)
            }
        }
        condition.lock(); running = false; condition.broadcast(); condition.unlock()
    }
}
