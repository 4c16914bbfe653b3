import Foundation

/// Real time: the clock's line (the sound device, else the monotonic clock) tells the media
/// time; a picture is shown when its time is within half a refresh interval of the display's.
/// Threading: immutable.
struct RealTimePacing: Pacing {
    var ownTime: Double? { nil }

    func clockSet(to pts: Double) {}

    func pick(_ screen: inout Screen, from queue: VideoFrameQueue, clock: PlaybackClock, displayTime: HostTime,
              refreshInterval: Double) {
        guard let now = clock.running(at: displayTime) else { return }
        let horizon = now + refreshInterval / 2
        while let next = queue.first, next.pts <= horizon {
            // A picture not shown yet is shown late rather than skipped while it is less
            // than about a frame behind (one late display tick); only when playback has
            // really fallen behind are pictures dropped to catch up.
            if let pending = screen.current, !screen.shown,
               now - pending.pts < max(pending.duration, refreshInterval) * 1.5 {
                break
            }
            _ = queue.popFirst()
            if screen.current != nil && !screen.shown { screen.dropped += 1 }
            screen.current = next
            screen.shown = false
        }
    }

    func lastPictureOver(_ screen: Screen, last: VideoFrame?, at time: Double) -> Bool {
        // The last picture's time is over, taken or not: nobody may be taking pictures (a
        // minimised or hidden window), and the end must still come.
        guard let last = last ?? screen.current else { return true }
        return time >= last.pts + last.duration - 0.001
    }

    func consumeSilently(_ fifo: AudioFifo, clock: PlaybackClock, scratch: UnsafeMutablePointer<Float>) {
        if clock.isRunning { fifo.discard(before: clock.time()) }
    }

    var silentPollInterval: UInt32 { 10_000 }
}
