import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// Exact and key-frame seeks, checked frame by frame against FFmpeg's own framemd5.
@Suite("Exact seeking")
struct ExactSeekTests {
    @Test("An exact seek shows the frame whose interval contains the target",
          arguments: Fixtures.Spec.seekable + [.h264VFR, .longGOP, .allIntra, .rawH264])
    func exactSeeksMatchFFmpeg(_ spec: Fixtures.Spec) throws {
        let path = try Fixtures.path(spec)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        // Forwards and backwards, near and far, in one player: every seek must land exactly.
        for target in oracle.targets(count: 10, seed: 0x5eed) {
            let frame = try #require(try test.seek(to: target, mode: .exact))
            let expected = oracle.frame(at: target)
            #expect(frame.md5() == expected.md5,
                    "\(spec.name): seek to \(target) showed pts \(frame.pts), expected pts \(expected.pts)")
        }
    }

    @Test("A key-frame seek lands on a key frame at or before the target", arguments: Fixtures.Spec.seekable)
    func keyframeSeeksLandOnKeyFrames(_ spec: Fixtures.Spec) throws {
        let path = try Fixtures.path(spec)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        for target in oracle.targets(count: 4, seed: 7) {
            let frame = try #require(try test.seek(to: target, mode: .keyframe))
            #expect(frame.isKeyFrame, "\(spec.name): landed on pts \(frame.pts), not a key frame")
            #expect(frame.pts <= target + 0.001, "\(spec.name): key frame \(frame.pts) is after target \(target)")
            let expected = oracle.frame(at: frame.pts + 0.0005)
            #expect(frame.md5() == expected.md5, "\(spec.name): key frame at \(frame.pts) differs from FFmpeg's")
        }
    }

    @Test("Seeks past the end show the last frame; seeks before the start show the first")
    func seekBounds() throws {
        let path = try Fixtures.path(.h264MP4)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        let last = try #require(try test.seek(to: 1_000))
        #expect(last.md5() == oracle.entries.last!.md5)
        let first = try #require(try test.seek(to: -5))
        #expect(first.md5() == oracle.entries.first!.md5)
    }

    @Test("The latest of many seeks wins, and nothing stale reaches the screen")
    func latestSeekWins() throws {
        let path = try Fixtures.path(.h264OpenGOP)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        let mark = test.recorder.count
        let targets = oracle.targets(count: 12, seed: 99)
        for t in targets { test.player.seek(to: t, mode: .exact) }
        let final = targets.last!
        // Wait until the landing for the last request: its position is the last target.
        try test.waitFor(from: mark, "the last seek to land") { event in
            if case .seekCompleted(let p) = event { return abs(p - final) < 1e-6 }
            return false
        }
        let frame = try #require(test.player.currentFrame)
        #expect(frame.md5() == oracle.frame(at: final).md5)
        #expect(abs(test.player.position - final) < 1e-6)
    }

    @Test("Stepping forward shows each following frame in turn")
    func stepForward() throws {
        let path = try Fixtures.path(.hevcMKV)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        let start = oracle.entries[20].pts + 0.001
        try test.seek(to: start)
        for i in 21..<30 {
            let mark = test.recorder.count
            test.player.stepForward()
            try test.waitFor(from: mark, "step \(i)") { if case .seekCompleted = $0 { return true }; return false }
            let frame = try #require(test.player.currentFrame)
            #expect(frame.md5() == oracle.entries[i].md5, "step to frame \(i)")
            #expect(abs(test.player.position - oracle.entries[i].pts) < 0.001)
        }
    }

    @Test("A seek made while the first frame is still being decoded is not lost")
    func seekDuringLoad() throws {
        let path = try Fixtures.path(.h264MP4)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        test.player.open(path)
        // Wait until the media is probed (the player is still loading), then seek.
        try test.waitFor("the media to be probed") { if case .mediaLoaded = $0 { return true }; return false }
        test.player.seek(to: 3.21, mode: .exact)
        try test.waitForState("ready") { $0 == .ready }
        // Either the first preroll was replaced by the seek, or it finished first and the
        // seek followed: both end at the target.
        if test.player.position != 3.21 {
            try test.waitFor("the seek to land") { if case .seekCompleted(let p) = $0 { return p == 3.21 }; return false }
        }
        #expect(test.player.position == 3.21)
        #expect(test.player.currentFrame?.md5() == oracle.frame(at: 3.21).md5)
    }
}

