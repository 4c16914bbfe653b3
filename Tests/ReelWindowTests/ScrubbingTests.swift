import Foundation
import ReelTestSupport
import Testing

/// Dragging the scrubber as a person does, in the real window under Xvfb: press, move in
/// steps, rest, move on, release. The picture must follow the drag (resting mid-drag shows the
/// frame under the thumb) and be the exact frame at the release position afterwards. The
/// oracle is FFmpeg's own decode and RGB conversion of the expected frame, compared by PSNR
/// with what the renderer drew; the frames either side must not match, so the check tells
/// neighbouring frames apart.
/// Threading: serialised (one Xvfb and GL rasteriser at a time); a test owns the standard shared desktop for its turn.
@Suite("Scrubbing in the window", .serialized)
struct ScrubbingTests {
    static let width = 640, height = 360
    static let fps = 30.0
    static let threshold = 35.0
    static let oracle = PictureOracle.Conversion(matrix: "bt709", range: "tv", chromaPosition: .left)

    /// The frame an exact landing at `t` shows (the one whose interval contains it), or nil
    /// when `t` sits so close to a frame boundary that the slider's rounding could pick either.
    static func frameIndex(at t: Double) -> Int? {
        let f = t * fps
        let fraction = f - f.rounded(.down)
        guard fraction > 0.02 && fraction < 0.98 else { return nil }
        return Int(f.rounded(.down))
    }

    /// Checks that `drawn` is frame `index` of `clip` and not one of its neighbours.
    static func expectFrame(_ drawn: String, is index: Int, of clip: String, on desktop: Desktop, _ what: String) throws {
        // The candidates are converted and compared two at a time, and judged here afterwards.
        let candidates = [index - 1, index, index + 1].filter { $0 >= 0 }
        let folder = desktop.home
        let measured = AtOnce.mapInPairs(candidates) { candidate in
            let png = folder.appendingPathComponent("\(what)-ffmpeg-\(candidate).png").path
            try PictureOracle.convert(clip, frame: candidate, oracle, to: png)
            return try PictureOracle.psnr(drawn, png)
        }
        var scores: [Int: Double] = [:]
        for (candidate, score) in zip(candidates, measured) { scores[candidate] = try score.get() }
        print("\(what): frame \(index) expected; PSNR by frame \(scores.sorted { $0.key < $1.key }) [\(drawn)]")
        let own = scores[index] ?? 0
        #expect(own >= threshold, "\(what): drawn \(drawn) is not frame \(index) (\(own) dB)")
        for (candidate, score) in scores where candidate != index {
            #expect(score < own && score < threshold,
                    "\(what): frame \(candidate) matches as well as \(index) (\(score) vs \(own) dB), the check cannot tell them apart")
        }
    }

    /// The slider's value once it has settled (two reads agree), in seconds.
    static func sliderValue(_ app: ReelApp) throws -> Double {
        var last: Double?
        var settled = 0.0
        try Desktop.wait("the scrubber's value to settle", log: app.log, timeout: 20) {
            let value = try app.accessibleTree().first { $0.name == "Position" && $0.role == "slider" }?.value
            defer { last = value }
            guard let value, value == last else { return false }
            settled = value
            return true
        }
        return settled
    }

    /// Moves the held pointer to `x` (nudged a pixel at a time while the position there sits
    /// on a frame boundary), returning the slider's value and the frame it names.
    static func rest(at x: Int, y: Int, app: ReelApp) throws -> (value: Double, frame: Int) {
        for nudge in 0..<4 {
            try app.desktop.moveMouse(x + nudge, y)
            let value = try sliderValue(app)
            if let index = frameIndex(at: value) { return (value, index) }
        }
        throw Command.Failure(command: ["rest", String(x)],
                              result: .init(status: -1, stdout: Data(), stderr: Data("every position near x=\(x) is on a frame boundary".utf8)))
    }

    @Test("Dragging the scrubber: the picture follows the drag, and the release shows the exact frame")
    func dragFollowsAndLandsExactly() throws {
        let clip = try Fixtures.path(.scrubClip)
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop, arguments: ["--paused", clip])
            defer { app.stop() }
            let first = try app.savePicture(width: Self.width, height: Self.height, name: "start")
            try Self.expectFrame(first, is: 0, of: clip, on: desktop, "before the drag")

            let movie = try app.element(named: "Video")
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height - 30)
            let bar = try app.element(named: "Position", role: "slider")
            let y = bar.y + bar.height / 2
            let from = bar.x + bar.width / 10, to = bar.x + bar.width * 6 / 10
            try desktop.glide(to: from, y)
            try desktop.xdotool(["mousedown", "1"])
            // Across half the file in 20 steps, about 60 updates a second as a hand makes them.
            for step in 1...20 {
                try desktop.moveMouse(from + (to - from) * step / 20, y)
                usleep(16_000)
            }
            try app.element(named: "Play")   // a drag pauses

            // Resting mid-drag, the thumb's frame is shown, not only a nearby key frame.
            let held = try Self.rest(at: to, y: y, app: app)
            let resting = try app.savePicture(width: Self.width, height: Self.height, name: "held")
            #expect(try PictureOracle.psnr(resting, first) < Self.threshold, "the picture did not change during the drag")
            try Self.expectFrame(resting, is: held.frame, of: clip, on: desktop, "resting mid-drag at \(held.value) s")

            // Back a little, then release: the exact frame at the release position, still paused.
            let back = bar.x + bar.width * 45 / 100
            for step in 1...10 {
                try desktop.moveMouse(to + (back - to) * step / 10, y)
                usleep(16_000)
            }
            let released = try Self.rest(at: back, y: y, app: app)
            try desktop.xdotool(["mouseup", "1"])
            let landed = try Self.sliderValue(app)
            #expect(abs(landed - released.value) < 1 / Self.fps, "released at \(released.value) s, the scrubber reads \(landed) s")
            let index = Self.frameIndex(at: landed) ?? released.frame
            let after = try app.savePicture(width: Self.width, height: Self.height, name: "released")
            try Self.expectFrame(after, is: index, of: clip, on: desktop, "after release at \(released.value) s")
            try app.element(named: "Play")   // it was paused before the drag, and stays so
        }
    }
}

extension Fixtures.Spec {
    /// 6 s of H.264 at 30 fps, 640×360 BT.709, 1 s GOPs with B-frames: a drag crosses several
    /// GOPs, and most frames are not key frames.
    static let scrubClip = video("scrub-h264-30fps-g30-bf3", ext: "mp4", size: "640x360", rate: "30", seconds: 6,
                                 codec: ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-g", "30", "-bf", "3",
                                         "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_range", "tv"])
}
