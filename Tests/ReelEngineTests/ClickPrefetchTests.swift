import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// The exact picture decoded ahead where the pointer rests (`Player.prefetchPicture`): a click
/// there (a scrub and its release at the same time, as the scrubber sends them) shows that
/// picture, and only there. The oracle is FFmpeg's framemd5 of the frame at the time; that the
/// prefetched picture was used is the player's count of seeks it served. How fast a click
/// shows its picture is `reel-bench click`'s business.
@Suite("Pictures decoded ahead for a click")
struct ClickPrefetchTests {
    static func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        try HostilePlaylistTests.waitUntil(timeout: TestPlayer.timeout, what, condition)
    }

    /// A click at `t`, as the scrubber makes one (the press scrubs, the release ends the scrub
    /// there); returns the first picture the press put on screen and the one the click landed on.
    static func click(_ test: TestPlayer, at t: Double) throws -> (first: VideoFrame, landed: VideoFrame) {
        let mark = test.recorder.count
        test.player.scrub(to: t)
        try test.waitFor(from: mark, "the press at \(t) to show a picture") { event in
            if case .displayInvalidated = event { return true }
            return false
        }
        let first = try #require(test.player.currentFrame)
        test.player.endScrub(at: t)
        try test.waitFor(from: mark, "the click at \(t) to land") { event in
            if case .seekCompleted(let p) = event { return abs(p - t) < 1e-6 }
            return false
        }
        return (first, try #require(test.player.currentFrame))
    }

    @Test("A click where the picture was decoded ahead shows that exact picture, deep in a long GOP and in a B-frame GOP",
          arguments: [(Fixtures.Spec.longGOP, 0.83), (.h264MP4, 0.61)])
    func servedClick(_ spec: Fixtures.Spec, _ share: Double) throws {
        let path = try Fixtures.path(spec)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        var t = share * oracle.duration
        if oracle.distanceToBoundary(t) < 0.002 { t += 0.004 }
        test.player.prefetchPicture(at: t)
        try Self.waitUntil("the picture at \(t) to be decoded ahead") { test.player.prefetchedPicture == t }
        #expect(test.player.statistics.prefetchesServed == 0)
        // The playing session has not moved meanwhile.
        #expect(test.player.position < 0.2, "prefetching moved the player to \(test.player.position)")

        let (first, frame) = try Self.click(test, at: t)
        #expect(first.md5() == oracle.frame(at: t).md5, "\(spec.name): the press at \(t) showed pts \(first.pts) first")
        #expect(frame.md5() == oracle.frame(at: t).md5, "\(spec.name): click at \(t) showed pts \(frame.pts)")
        #expect(test.player.statistics.prefetchesServed == 1, "the click did not use the picture decoded ahead")

        // Play goes on from there.
        let mark = test.recorder.count
        test.player.play()
        try test.waitForState(from: mark, "playing after the click") { $0 == .playing }
        try Self.waitUntil("playing on past the click") { test.player.position > t + 0.2 }
    }

    @Test("A click elsewhere is an ordinary exact seek, and the pointer moving on forgets a landing")
    func elsewhere() throws {
        let path = try Fixtures.path(.h264MP4)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        let t = 1.51, other = 2.73
        test.player.prefetchPicture(at: t)
        try Self.waitUntil("the picture at \(t) to be decoded ahead") { test.player.prefetchedPicture == t }
        let frame = try Self.click(test, at: other).landed
        #expect(frame.md5() == oracle.frame(at: other).md5)
        #expect(test.player.statistics.prefetchesServed == 0, "a click at \(other) used the picture at \(t)")
        // Asked and forgotten before it could land: nothing is decoded ahead for it.
        test.player.prefetchPicture(at: 0.52)
        test.player.prefetchPicture(at: nil)
        let again = try Self.click(test, at: 0.52).landed
        #expect(again.md5() == oracle.frame(at: 0.52).md5)
        #expect(test.player.statistics.prefetchesServed == 0, "a landing forgotten before it was decoded served a click")
    }

    @Test("At 25i the picture decoded ahead is the field an exact seek lands on")
    func fields() throws {
        let path = try Fixtures.path(.interlacedTFF)
        let oracle = try FieldMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        let t = oracle.entries[37].pts + 0.005
        test.player.prefetchPicture(at: t)
        try Self.waitUntil("the field at \(t) to be decoded ahead") { test.player.prefetchedPicture == t }
        let (first, frame) = try Self.click(test, at: t)
        #expect(first.md5() == oracle.entries[37].md5, "the press at \(t) showed pts \(first.pts) first")
        #expect(frame.md5() == oracle.entries[37].md5, "click at \(t) showed pts \(frame.pts)")
        #expect(test.player.statistics.prefetchesServed == 1)
    }

    @Test("Turning deinterlacing off forgets the field decoded ahead: a click there shows the woven frame")
    func deinterlacingChanged() throws {
        let path = try Fixtures.path(.interlacedTFF)
        let frames = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        let t = 1.234
        test.player.prefetchPicture(at: t)
        try Self.waitUntil("the field at \(t) to be decoded ahead") { test.player.prefetchedPicture == t }
        let mark = test.recorder.count
        test.player.setDeinterlace(.off)
        try test.waitFor(from: mark, "the picture again without deinterlacing") { event in
            if case .seekCompleted = event { return true }
            return false
        }
        #expect(test.player.prefetchedPicture == nil)
        let frame = try Self.click(test, at: t).landed
        #expect(frame.md5() == frames.frame(at: t).md5, "click at \(t) showed pts \(frame.pts)")
        #expect(test.player.statistics.prefetchesServed == 0, "a field decoded ahead was shown with deinterlacing off")
    }
}
