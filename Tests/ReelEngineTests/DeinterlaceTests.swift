import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// Interlaced video deinterlaced at field rate, picture for picture as FFmpeg's own run of
/// `bwdif=mode=send_field` from the start of the file makes it: at any time, after any seek,
/// both fields of a frame, on and off key frames; progressive video untouched.
@Suite("Deinterlacing")
struct DeinterlaceTests {
    /// Times in the first and the second field of frames at the start, inside a GOP, on a key
    /// frame (frame 12, from 0.48 s) and at the end; each a few milliseconds from a boundary.
    static let times: [Double] = [0.005, 0.031, 0.25, 0.487, 0.515, 1.13, 1.155, 1.995]

    @Test("reel-tool frame shows bwdif's field at each time, both field orders",
          arguments: [Fixtures.Spec.interlacedTFF, .interlacedBFF])
    func frameMatchesBwdif(_ spec: Fixtures.Spec) throws {
        let path = try Fixtures.path(spec)
        let oracle = try FieldMD5.of(path)
        #expect(oracle.entries.count == 100, "2 s of 25i: 100 fields")
        for t in Self.times {
            let result = try ReelToolTests.tool(["frame", path, "--at", String(t), "--md5"])
            #expect(result.status == 0, "\(spec.name) at \(t): \(result.errors)")
            let json = try ReelToolTests.json(try #require(result.output.split(separator: "\n").last))
            let (index, expected) = oracle.field(at: t)
            #expect(json["md5"] as? String == expected.md5, "\(spec.name) at \(t): not bwdif's field \(index)")
            #expect(json["index"] as? Int == index, "\(spec.name) at \(t)")
            #expect(abs((json["pts"] as? Double ?? -1) - expected.pts) < 1e-6, "\(spec.name) at \(t)")
            let status = try #require(json["deinterlacing"] as? [String: Any])
            #expect(status["active"] as? Bool == true)
            #expect(status["filter"] as? String == "bwdif")
            #expect(status["pictures_per_second"] as? Double == 50)
            #expect(status["field_order"] as? String == (spec == .interlacedTFF ? "tff" : "bff"))
        }
    }

    @Test("Seeks back and forth in one player land on bwdif's fields, and so does the step after each",
          arguments: [Fixtures.Spec.interlacedTFF, .interlacedBFF])
    func seeksLandOnFields(_ spec: Fixtures.Spec) throws {
        let path = try Fixtures.path(spec)
        let oracle = try FieldMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        var rng = SplitMix64(seed: 0xf1e1d)
        for _ in 0..<12 {
            var t = Double(rng.next() % 1_960_000) / 1_000_000
            let offset = t.truncatingRemainder(dividingBy: 0.02)
            if offset < 0.002 || offset > 0.018 { t += 0.005 }   // away from field boundaries
            let frame = try #require(try test.seek(to: t))
            let (index, expected) = oracle.field(at: t)
            #expect(frame.md5() == expected.md5, "\(spec.name): seek to \(t) showed pts \(frame.pts), not field \(index)")
            #expect(frame.index == index)
            // The picture just after the landing: bwdif's next field, 0.02 s on.
            let mark = test.recorder.count
            test.player.stepForward()
            try test.waitFor(from: mark, "a step after the seek to \(t)") {
                if case .seekCompleted = $0 { return true }; return false
            }
            let next = try #require(test.player.currentFrame)
            let following = oracle.entries[min(index + 1, oracle.entries.count - 1)]
            #expect(next.md5() == following.md5, "\(spec.name): the step after the seek to \(t) showed pts \(next.pts)")
        }
    }

    @Test("Switching the mode while paused redraws the picture at the same time: woven off, bwdif's field back on")
    func switchWhilePaused() throws {
        let path = try Fixtures.path(.interlacedTFF)
        let fields = try FieldMD5.of(path), frames = try FrameMD5.of(path)
        let test = TestPlayer()
        try test.open(path)
        let t = 1.155
        #expect(try #require(try test.seek(to: t)).md5() == fields.field(at: t).entry.md5)
        for (mode, expected) in [(DeinterlaceMode.off, frames.frame(at: t).md5), (.auto, fields.field(at: t).entry.md5)] {
            let mark = test.recorder.count
            test.player.setDeinterlace(mode)
            try test.waitFor(from: mark, "the picture redrawn \(mode)") {
                if case .seekCompleted = $0 { return true }; return false
            }
            #expect(test.player.currentFrame?.md5() == expected, "\(mode) at \(t)")
            #expect(test.player.state == .ready, "a switch keeps the pause")
            #expect(test.player.deinterlacing?.isActive == (mode != .off))
        }
    }

    @Test("Progressive files are unchanged, and off shows the woven frames")
    func progressiveAndOff() throws {
        let progressive = try Fixtures.path(.h264MP4)
        let frames = try FrameMD5.of(progressive)
        let plain = try ReelToolTests.tool(["frame", progressive, "--at", "1.51", "--md5"])
        #expect(plain.status == 0, "\(plain.errors)")
        let json = try ReelToolTests.json(try #require(plain.output.split(separator: "\n").last))
        #expect(json["md5"] as? String == frames.frame(at: 1.51).md5)
        #expect(json["index"] as? Int == 45)
        let status = try #require(json["deinterlacing"] as? [String: Any])
        #expect(status["mode"] as? String == "auto")
        #expect(status["active"] as? Bool == false)

        let interlaced = try Fixtures.path(.interlacedTFF)
        let woven = try FrameMD5.of(interlaced)
        let off = try ReelToolTests.tool(["frame", interlaced, "--at", "1.13", "--md5", "--deinterlace", "off"])
        #expect(off.status == 0, "\(off.errors)")
        let offJSON = try ReelToolTests.json(try #require(off.output.split(separator: "\n").last))
        #expect(offJSON["md5"] as? String == woven.frame(at: 1.13).md5)
        #expect((offJSON["deinterlacing"] as? [String: Any])?["active"] as? Bool == false)
    }
}
