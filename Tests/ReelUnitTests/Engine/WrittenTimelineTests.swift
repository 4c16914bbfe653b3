@testable import ReelEngine
import Testing

/// Which media time each byte written to the sound server stands for: the mapping the audio
/// clock reads the time from, with no server.
@Suite("Written sound as media time")
struct WrittenTimelineTests {
    /// Stereo float at 48 kHz: 8 bytes a frame, 384,000 bytes a second.
    static func timeline() -> WrittenTimeline { WrittenTimeline(bytesPerFrame: 8, sampleRate: 48_000) }
    static let second: Int64 = 384_000

    @Test("Continuous sound is one run; an offset maps to its media time")
    func continuous() {
        var t = Self.timeline()
        #expect(!t.hasWritten && t.pts(atOffset: 0) == nil)
        t.record(frames: 24_000, startPts: 10, speed: 1)
        t.record(frames: 24_000, startPts: 10.5, speed: 1)
        #expect(t.runs.count == 1)
        #expect(t.bytes == Self.second)
        #expect(t.pts(atOffset: Self.second / 4) == 10.25)
        #expect(t.endPts == 11)
    }

    @Test("A jump in media time or a new tempo starts a new run; each maps by its own")
    func jumpsAndTempo() {
        var t = Self.timeline()
        t.record(frames: 48_000, startPts: 0, speed: 1)       // 0 … 1 s
        t.record(frames: 48_000, startPts: 5, speed: 1)       // a seek: 5 … 6 s
        t.record(frames: 48_000, startPts: 6, speed: 2)       // at 2×: 6 … 8 s
        #expect(t.runs == [.init(offset: 0, pts: 0, speed: 1), .init(offset: Self.second, pts: 5, speed: 1),
                           .init(offset: 2 * Self.second, pts: 6, speed: 2)])
        #expect(t.pts(atOffset: Self.second + Self.second / 2) == 5.5)
        #expect(t.pts(atOffset: 2 * Self.second + Self.second / 2) == 7)
        #expect(t.speed(atOffset: 2 * Self.second + 1) == 2 && t.speed(atOffset: 1) == 1)
        #expect(t.endPts == 8)
    }

    @Test("A gapless seam continues at the next item's time; a flush forgets the runs but not where sound ended")
    func seamAndReset() {
        var t = Self.timeline()
        t.record(frames: 48_000, startPts: 59, speed: 1)
        t.continueAt(0)                                       // the next item from 0 s
        t.record(frames: 48_000, startPts: 0, speed: 1)
        #expect(t.runs.count == 2)
        #expect(t.pts(atOffset: Self.second + Self.second / 2) == 0.5)
        t.reset()
        #expect(!t.hasWritten && t.bytes == 0 && t.runs.isEmpty)
        #expect(t.endPts == 1, "a gap after the flush is measured from what was written last")
    }
}
