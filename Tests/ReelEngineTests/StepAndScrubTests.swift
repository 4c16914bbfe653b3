import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// Frame steps both ways, short seeks served from decoded pictures or by decoding on, and
/// scrubber drags, each landing checked against FFmpeg's framemd5 of the expected frame.
/// Correctness only: how fast these are is `reel-bench step|scrub`'s business.
@Suite("Steps, short seeks and scrubbing")
struct StepAndScrubTests {
    /// A fixture with where to start stepping back and how far: far enough to cross at
    /// least one key frame (and, for the long GOP, to outrun the 64 pictures kept).
    struct BackRun: Sendable, CustomStringConvertible {
        let spec: Fixtures.Spec
        let start: Int
        let steps: Int
        var description: String { spec.name }
    }

    static let backRuns: [BackRun] = [
        BackRun(spec: .h264MP4, start: 65, steps: 40),        // B-frames, 1 s GOP
        BackRun(spec: .h264OpenGOP, start: 52, steps: 34),    // open GOP, 24-frame GOP
        BackRun(spec: .h264VFR, start: 50, steps: 30),        // variable frame rate
        BackRun(spec: .longGOP, start: 160, steps: 90),       // 10 s GOP
        BackRun(spec: .allIntra, start: 30, steps: 12),       // every frame a key frame
        BackRun(spec: .hevcMKV, start: 40, steps: 20),
    ]

    @Test("Back steps, many in a row and across key frames, show each previous frame", arguments: backRuns)
    func backSteps(_ run: BackRun) throws {
        let path = try Fixtures.path(run.spec)
        let oracle = try FrameMD5.of(path)
        let start = min(run.start, oracle.entries.count - 1)
        let test = TestPlayer()
        try test.open(path)
        try test.seek(to: oracle.entries[start].pts + 0.0005)
        for i in stride(from: start - 1, through: max(0, start - run.steps), by: -1) {
            let frame = try step(test, back: true, "\(run.spec.name): back to frame \(i)")
            #expect(frame.md5() == oracle.entries[i].md5,
                    "\(run.spec.name): back step to frame \(i) showed pts \(frame.pts), expected \(oracle.entries[i].pts)")
            #expect(abs(test.player.position - oracle.entries[i].pts) < 0.001)
        }
    }

    @Test("Back and forward steps mixed land on the right frames", arguments: [Fixtures.Spec.h264MP4, .h264OpenGOP, .h264VFR])
    func mixedSteps(_ spec: Fixtures.Spec) throws {
        let path = try Fixtures.path(spec)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        var index = 40
        try test.seek(to: oracle.entries[index].pts + 0.0005)
        for (count, back) in [(3, true), (5, false), (8, true), (2, false), (30, true), (4, false)] {
            for _ in 0..<count {
                index += back ? -1 : 1
                let frame = try step(test, back: back, "\(spec.name): step to frame \(index)")
                #expect(frame.md5() == oracle.entries[index].md5, "\(spec.name): step to frame \(index) showed pts \(frame.pts)")
            }
        }
    }

    @Test("At 25i a step moves one field, 0.02 s, both ways and across a key frame")
    func fieldSteps() throws {
        let path = try Fixtures.path(.interlacedTFF)
        let oracle = try FieldMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        var index = 30   // frame 15's first field; frame 12 (fields 24 and 25) is a key frame
        try test.seek(to: oracle.entries[index].pts + 0.005)
        for (count, back) in [(2, false), (10, true), (3, false)] {
            for _ in 0..<count {
                let before = try #require(test.player.currentFrame).pts
                index += back ? -1 : 1
                let frame = try step(test, back: back, "step to field \(index)")
                #expect(frame.md5() == oracle.entries[index].md5, "step to field \(index) showed pts \(frame.pts)")
                #expect(abs(test.player.position - oracle.entries[index].pts) < 1e-6)
                #expect(abs(abs(test.player.position - before) - 0.02) < 1e-6, "a step moves one field")
            }
        }
    }

    @Test("Short seeks both ways from a paused position land exactly",
          arguments: [Fixtures.Spec.h264MP4, .h264OpenGOP, .h264VFR, .longGOP, .allIntra, .hevcMKV, .vp9WebM])
    func shortSeeks(_ spec: Fixtures.Spec) throws {
        let path = try Fixtures.path(spec)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        // A seeded walk of small hops: some land on decoded pictures, some decode on, some seek.
        var rng = SplitMix64(seed: 0xb0b)
        var t = oracle.duration / 3
        for hop in 0..<40 {
            let delta = (Double(rng.next() % 1000) / 1000 - 0.35) * 0.6
            var next = min(max(t + delta, 0), oracle.duration)
            if oracle.distanceToBoundary(next) < 0.002 { next += 0.004 }
            t = next
            let frame = try #require(try test.seek(to: t))
            #expect(frame.md5() == oracle.frame(at: t).md5,
                    "\(spec.name): hop \(hop) to \(t) showed pts \(frame.pts), expected \(oracle.frame(at: t).pts)")
            #expect(abs(test.player.position - t) < 1e-6)
        }
    }

    @Test("A drag ends on the exact frame at the release position, forwards and backwards",
          arguments: [Fixtures.Spec.h264MP4, .h264OpenGOP, .h264VFR, .longGOP, .allIntra])
    func scrubThenRelease(_ spec: Fixtures.Spec) throws {
        let path = try Fixtures.path(spec)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        let d = oracle.duration
        for (from, to) in [(0.05, 0.83), (0.9, 0.2), (0.4, 0.47)] {
            var release = to * d
            if oracle.distanceToBoundary(release) < 0.002 { release += 0.004 }
            for k in 0...40 {
                test.player.scrub(to: (from + (to - from) * Double(k) / 40) * d)
                usleep(4_000)
            }
            let mark = test.recorder.count
            test.player.endScrub(at: release)
            try test.waitFor(from: mark, "\(spec.name): the release at \(release) to land") { event in
                if case .seekCompleted(let p) = event { return abs(p - release) < 1e-6 }
                return false
            }
            let frame = try #require(test.player.currentFrame)
            #expect(frame.md5() == oracle.frame(at: release).md5,
                    "\(spec.name): release at \(release) showed pts \(frame.pts), expected \(oracle.frame(at: release).pts)")
        }
    }

    @Test("Every picture a drag lands on is the one for its position, forwards and back again",
          arguments: [Fixtures.Spec.h264MP4, .h264OpenGOP, .h264VFR, .longGOP, .hevcMKV])
    func scrubLandings(_ spec: Fixtures.Spec) throws {
        let path = try Fixtures.path(spec)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        // Small moves, each awaited: key-frame landings, decoding on, and (turning back)
        // landings on what decoding on kept.
        let d = oracle.duration
        let path1 = stride(from: 0.1, through: 0.6, by: 0.013).map { $0 * d }
        let path2 = stride(from: 0.6, through: 0.35, by: -0.009).map { $0 * d }
        for var t in path1 + path2 {
            if oracle.distanceToBoundary(t) < 0.002 { t += 0.004 }
            let mark = test.recorder.count
            test.player.scrub(to: t)
            let event = try test.waitFor(from: mark, "\(spec.name): the scrub to \(t) to land") { event in
                if case .seekCompleted = event { return true }
                return false
            }
            guard case .seekCompleted(let p) = event else { continue }
            let frame = try #require(test.player.currentFrame)
            // An exact landing reports the position asked for; a key-frame one the key frame's time.
            let expected = oracle.frame(at: abs(p - t) < 1e-9 ? t : p + 0.0005)
            #expect(frame.md5() == expected.md5,
                    "\(spec.name): scrub to \(t) landed at \(p) showing pts \(frame.pts), expected pts \(expected.pts)")
        }
    }

    @Test("Play after stepping back starts from the stepped-to frame with the sound")
    func playAfterBackSteps() throws {
        let path = try Fixtures.path(.h264MP4)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        try test.seek(to: oracle.entries[50].pts + 0.0005)
        for i in stride(from: 49, through: 45, by: -1) { _ = try step(test, back: true, "back to \(i)") }
        let mark = test.recorder.count
        test.player.play()
        // The picture moved alone while paused: play first seeks exactly there, sound included.
        try test.waitFor(from: mark, "the resynchronising seek") { event in
            if case .seekCompleted(let p) = event { return abs(p - oracle.entries[45].pts) < 1e-6 }
            return false
        }
        try test.waitForState(from: mark, "playing") { $0 == .playing }
        try test.waitFor(from: mark, "time to move on") { event in
            if case .time(let p, _) = event { return p > oracle.entries[46].pts }
            return false
        }
    }

    @Test("A storm of 100 seeks, scrubs and steps ends where the last one says")
    func storm() throws {
        let path = try Fixtures.path(.h264OpenGOP)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        let targets = oracle.targets(count: 100, seed: 4242)
        for (i, t) in targets.enumerated() {
            switch i % 5 {
            case 0, 1: test.player.seek(to: t, mode: .exact)
            case 2: test.player.scrub(to: t)
            case 3: test.player.stepBackward()
            default: test.player.seek(to: t, mode: .keyframe)
            }
        }
        let final = oracle.targets(count: 1, seed: 77)[0]
        let mark = test.recorder.count
        test.player.seek(to: final, mode: .exact)
        try test.waitFor(from: mark, "the last seek to land") { event in
            if case .seekCompleted(let p) = event { return abs(p - final) < 1e-6 }
            return false
        }
        // Nothing queued before it may land afterwards.
        usleep(300_000)
        let frame = try #require(test.player.currentFrame)
        #expect(frame.md5() == oracle.frame(at: final).md5)
        #expect(abs(test.player.position - final) < 1e-6)
    }

    @Test("A raw H.264 stream (no index) seeks, steps and scrubs without hanging")
    func rawStream() throws {
        let path = try Fixtures.path(.rawH264)
        let oracle = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        for t in [1.53, 0.42, 2.2, 50.0, -3.0] {
            let frame = try #require(try test.seek(to: t))
            #expect(frame.md5() == oracle.frame(at: t).md5, "raw: seek to \(t) showed pts \(frame.pts)")
        }
        try test.seek(to: 1.53)
        let index = oracle.entries.lastIndex { $0.pts <= 1.53 }!
        for i in stride(from: index - 1, through: index - 6, by: -1) {
            let frame = try step(test, back: true, "raw: back to \(i)")
            #expect(frame.md5() == oracle.entries[i].md5, "raw: back step to frame \(i) showed pts \(frame.pts)")
        }
        for k in 0...20 { test.player.scrub(to: Double(k) * 0.1) }
        let mark = test.recorder.count
        test.player.endScrub(at: 1.03)
        try test.waitFor(from: mark, "raw: the release to land") { event in
            if case .seekCompleted(let p) = event { return abs(p - 1.03) < 1e-6 }
            return false
        }
        #expect(test.player.currentFrame?.md5() == oracle.frame(at: 1.03).md5)
    }

    /// One step and its landing; the frame on screen afterwards.
    private func step(_ test: TestPlayer, back: Bool, _ what: String) throws -> VideoFrame {
        let mark = test.recorder.count
        if back { test.player.stepBackward() } else { test.player.stepForward() }
        try test.waitFor(from: mark, what) { if case .seekCompleted = $0 { return true }; return false }
        return try #require(test.player.currentFrame)
    }
}
