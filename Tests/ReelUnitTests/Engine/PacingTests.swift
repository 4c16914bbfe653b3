@testable import ReelEngine
import Testing

/// The two pacings given to the clock, without a decoder: pictures pushed by hand into a queue.
@Suite("Pacing")
struct PacingTests {
    private func queue(_ times: [Double]) -> VideoFrameQueue {
        let queue = VideoFrameQueue(capacity: 16) { _, _ in }
        queue.reset(serial: 1)
        for t in times { queue.push(VideoFrame(frame: Frame(), serial: 1, pts: t, duration: 0.25, index: nil)) }
        return queue
    }

    @Test("Freewheel shows every picture once, in order, each only after the last was shown; its time is the last picture's")
    func freewheelShowsEveryPicture() {
        let clock = PlaybackClock(pacing: FreewheelPacing())
        let pictures = queue([0, 0.25, 0.5])
        var screen = Screen()
        var seen: [Double] = []
        for _ in 0..<6 {
            clock.pacing.pick(&screen, from: pictures, clock: clock, displayTime: .now, refreshInterval: 1.0 / 60)
            // Picked again before being shown: the same picture stays.
            clock.pacing.pick(&screen, from: pictures, clock: clock, displayTime: .now, refreshInterval: 1.0 / 60)
            if let current = screen.current, !screen.shown {
                seen.append(current.pts)
                #expect(clock.time() == current.pts)
                screen.shown = true
            }
        }
        #expect(seen == [0, 0.25, 0.5])
        #expect(screen.dropped == 0)
        #expect(clock.pacing.lastPictureOver(screen, last: pictures.last, at: 0))
        clock.set(7)
        #expect(clock.time() == 7)
    }

    @Test("Real time shows nothing while the clock is frozen, then the picture due, dropping the ones long past")
    func realTimeFollowsTheClock() throws {
        let clock = PlaybackClock()
        let times = [0, 0.25, 0.5, 0.75, 1.0, 1.25]
        let pictures = queue(times)
        var screen = Screen()
        clock.set(1.0)
        clock.pacing.pick(&screen, from: pictures, clock: clock, displayTime: .now, refreshInterval: 1.0 / 60)
        #expect(screen.current == nil)
        #expect(clock.time() == 1.0)
        clock.run()
        let at = HostTime.now
        clock.pacing.pick(&screen, from: pictures, clock: clock, displayTime: at, refreshInterval: 1.0 / 60)
        let now = try #require(clock.running(at: at))
        let shown = try #require(screen.current)
        // Shown late rather than skipped only within about a frame of the clock; every picture
        // before it was never shown: dropped.
        #expect(shown.pts >= 0.75 && shown.pts <= now + 1.0 / 120)
        #expect(screen.dropped == times.firstIndex(of: shown.pts))
        #expect(!clock.pacing.lastPictureOver(screen, last: pictures.last, at: 1.3))
        #expect(clock.pacing.lastPictureOver(screen, last: pictures.last, at: 1.5))
    }
}
