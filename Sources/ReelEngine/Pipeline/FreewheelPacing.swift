import Foundation

/// Freewheel (`PlayerConfiguration.freewheel`: `reel-tool play --max-speed`, benchmarks, soak
/// tests): every picture once, as fast as they are pulled; the media time is the last picture
/// presented, and silent sound is swallowed as fast as it comes.
/// Threading: any thread; the position is locked.
final class FreewheelPacing: Pacing {
    private let position = Locked(0.0)

    var ownTime: Double? { position.current }

    func clockSet(to pts: Double) {
        position.withLock { $0 = pts }
    }

    func pick(_ screen: inout Screen, from queue: VideoFrameQueue, clock: PlaybackClock, displayTime: HostTime,
              refreshInterval: Double) {
        guard screen.shown || screen.current == nil, let next = queue.popFirst() else { return }
        screen.current = next
        screen.shown = false
        position.withLock { $0 = next.pts }
    }

    func lastPictureOver(_ screen: Screen, last: VideoFrame?, at time: Double) -> Bool {
        last == nil && (screen.current == nil || screen.shown)
    }

    func consumeSilently(_ fifo: AudioFifo, clock: PlaybackClock, scratch: UnsafeMutablePointer<Float>) {
        while fifo.read(into: scratch, maxFrames: 4096).frames > 0 {}
    }

    var silentPollInterval: UInt32 { 1000 }
}
