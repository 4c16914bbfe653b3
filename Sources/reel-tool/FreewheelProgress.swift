import Foundation
import ReelEngine

/// Tells when a freewheeling player has handed out its last picture. The engine never reaches
/// `ended` in freewheel mode (its end test waits for the media clock to pass the last frame's
/// end, and a freewheel clock stops at that frame's start), so the decode bench watches the
/// pictures instead: the run is over once the last one out ends at the media's end and nothing
/// follows it. Its time is when that picture was handed out, not when the lull was noticed.
/// Threading: `frameHandedOut` runs on the presenting thread, `waitForLastFrame` on the
/// bench's; the counters are guarded by `lock`, hence @unchecked Sendable.
final class FreewheelProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var frames = 0
    private var lastAt: HostTime?
    private var lastEnd = 0.0

    /// Called once per new picture, as it is handed out (a presenter's `onFrame`).
    @Sendable func frameHandedOut(_ frame: VideoFrame) {
        let now = HostTime.now
        lock.lock()
        frames += 1
        lastAt = now
        lastEnd = frame.pts + frame.duration
        lock.unlock()
    }

    /// Waits until the pictures stop: the last one ends within 50 ms of `mediaEnd`, every
    /// decoded picture is out, and none came for 200 ms; or (video shorter than the container)
    /// none came for two seconds. Returns when the last picture was handed out and how many
    /// there were, or nil on timeout.
    func waitForLastFrame(mediaEnd: Double?, decodedSoFar: () -> Int, timeout: Double) -> (at: HostTime, frames: Int)? {
        let deadline = HostTime.now.adding(seconds: timeout)
        while HostTime.now < deadline {
            usleep(5_000)
            lock.lock()
            let (count, at, end) = (frames, lastAt, lastEnd)
            lock.unlock()
            guard let at, count > 0 else { continue }
            let quiet = HostTime.now.seconds(since: at)
            let atEnd = mediaEnd.map { end >= $0 - 0.05 } ?? false
            // Every decoded picture is out: none is left in a queue behind the last one seen.
            if (atEnd && quiet >= 0.2 && decodedSoFar() == count) || quiet >= 2 { return (at, count) }
        }
        return nil
    }
}
