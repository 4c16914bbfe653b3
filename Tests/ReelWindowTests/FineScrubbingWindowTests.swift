import Foundation
import ReelTestSupport
import Testing

/// Fine scrubbing in the real window, with real pointer events: a drag moved away from the
/// scrubber slows down by the band the pointer is in, says so above the thumb, the picture
/// follows the slowed position, and the release lands there (not at the time under the
/// pointer). The expected positions come from the speeds and a full-speed stretch of
/// the same drag measured through the accessibility tree; the pictures from FFmpeg.
/// Threading: serialised (one Xvfb and GL rasteriser at a time); a test owns the standard shared desktop for its turn.
@Suite("Fine scrubbing in the window", .serialized)
struct FineScrubbingWindowTests {
    /// The preview card while it shows, as assistive technologies read it.
    static func card(_ app: ReelApp) throws -> String? {
        try app.accessibleTree().first { $0.name.hasPrefix("Preview at ") && $0.states.contains("visible") }?.name
    }

    static func slide(_ desktop: Desktop, from: Int, to: Int, y: Int, steps: Int = 10) throws {
        for step in 1...steps {
            try desktop.moveMouse(from + (to - from) * step / steps, y)
            usleep(16_000)
        }
    }

    @Test("Dragging a quarter of the way up slows the scrubber to a quarter, and the release lands where the thumb is")
    func quarterSpeed() throws {
        let clip = try Fixtures.path(.scrubClip)
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop, arguments: ["--paused", clip])
            defer { app.stop() }
            let movie = try app.element(named: "Video")
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height - 30)
            let bar = try app.element(named: "Position", role: "slider")
            let y = bar.y + bar.height / 2
            let from = bar.x + bar.width / 5
            try desktop.glide(to: from, y)
            try desktop.xdotool(["mousedown", "1"])
            let pressed = try ScrubbingTests.sliderValue(app)

            // 100 pixels along the scrubber at full speed: what a pixel is worth here.
            try Self.slide(desktop, from: from, to: from + 100, y: y)
            let full = try ScrubbingTests.sliderValue(app) - pressed
            #expect(full > 0.5, "a 100-pixel drag moved \(full) s")
            #expect(try Self.card(app).map { !$0.contains("scrubbing") } == true, "a full-speed drag names no speed")

            // Straight up, 125 pixels above the scrubber (the quarter band): nothing moves...
            let up = bar.y - 125
            let before = try ScrubbingTests.sliderValue(app)
            try desktop.moveMouse(from + 100, y - 40)
            try desktop.moveMouse(from + 100, y - 80)
            try desktop.moveMouse(from + 100, up)
            try Desktop.wait("the card to say the speed", log: app.log, timeout: 20) {
                try Self.card(app)?.contains("Quarter-speed scrubbing") == true
            }
            #expect(abs(try ScrubbingTests.sliderValue(app) - before) < 1e-6, "changing band moved the position")

            // ...and 200 pixels sideways there move it as 50 would on the scrubber.
            try Self.slide(desktop, from: from + 100, to: from + 300, y: up, steps: 20)
            let quarter = try ScrubbingTests.sliderValue(app) - before
            print("full speed: \(full) s for 100 px; quarter band: \(quarter) s for 200 px")
            #expect(abs(quarter - full / 2) < 0.02 * full + 0.002, "200 px at a quarter moved \(quarter) s, not \(full / 2) s")

            // The picture shown is the slowed position's (nudged on while that sits on a
            // frame boundary, where either neighbour would be right).
            var held = try ScrubbingTests.sliderValue(app)
            for nudge in 1...4 where ScrubbingTests.frameIndex(at: held) == nil {
                try desktop.moveMouse(from + 300 + nudge, up)
                held = try ScrubbingTests.sliderValue(app)
            }
            let index = try #require(ScrubbingTests.frameIndex(at: held), "every position near \(held) s is on a frame boundary")
            let drawn = try app.savePicture(width: ScrubbingTests.width, height: ScrubbingTests.height, name: "fine-held")
            try ScrubbingTests.expectFrame(drawn, is: index, of: clip, on: desktop, "held at a quarter speed at \(held) s")

            // Let go far from the scrubber: it lands on the thumb, not under the pointer.
            try desktop.xdotool(["mouseup", "1"])
            try Desktop.wait("the speed to be gone from the card", log: app.log, timeout: 20) {
                try Self.card(app)?.contains("scrubbing") != true
            }
            let landed = try ScrubbingTests.sliderValue(app)
            #expect(abs(landed - held) < 1 / ScrubbingTests.fps, "held at \(held) s, landed at \(landed) s")
            let after = try app.savePicture(width: ScrubbingTests.width, height: ScrubbingTests.height, name: "fine-released")
            try ScrubbingTests.expectFrame(after, is: ScrubbingTests.frameIndex(at: landed) ?? index, of: clip, on: desktop,
                                           "released at \(landed) s")
            try app.element(named: "Play")
        }
    }
}
