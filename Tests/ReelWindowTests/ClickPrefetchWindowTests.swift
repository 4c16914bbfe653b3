import Foundation
import ReelTestSupport
import Testing

/// A click on the scrubber where the pointer rested, in the real window with real pointer
/// events: the rest has the picture there decoded ahead (`--report` says so, and where), the
/// click lands exactly there, and the report's summary counts the click as shown from the
/// picture decoded ahead. (A measured run owns no D-Bus name, so the picture itself is not
/// saved here: ClickPrefetchTests compares it with FFmpeg's, and ScrubbingTests the window's
/// pictures after clicks and drags.)
/// Threading: serialised (one Xvfb and GL rasteriser at a time); a test owns the standard shared desktop for its turn.
@Suite("A click where the pointer rested", .serialized)
struct ClickPrefetchWindowTests {
    /// The report's lines so far, parsed.
    static func reportLines(_ app: ReelApp) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: app.log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    @Test("Resting on the scrubber decodes the picture there ahead, and a click there shows it")
    func restThenClick() throws {
        let clip = try Fixtures.path(.scrubClip)
        try SharedDesktop.standard.use { desktop in
            // The pointer away from where a scrubber could be (a turn before may have left it on
            // one): the only rest on the scrubber is the one below.
            try desktop.moveMouse(0, 0)
            let app = try ReelApp(on: desktop, arguments: ["--report", "--paused", clip])
            defer { app.stop() }
            let movie = try app.element(named: "Video")
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height / 3)
            let bar = try app.element(named: "Position", role: "slider")
            // One jump onto the scrubber: a single hover position, so a single rest.
            try desktop.moveMouse(bar.x + bar.width * 63 / 100, bar.y + bar.height / 2)
            var ahead: Double?
            try Desktop.wait("the picture under the pointer to be decoded ahead", log: app.log, timeout: 30) {
                ahead = Self.reportLines(app).last { $0["event"] as? String == "picture_decoded_ahead" }?["at"] as? Double
                return ahead != nil
            }
            let at = try #require(ahead)
            let decoded = Self.reportLines(app).filter { $0["event"] as? String == "picture_decoded_ahead" }
            #expect(decoded.count == 1, "rests on the scrubber before the one made here: \(decoded)")

            // The scrubber's value before the click settles too: wait for the click's.
            let before = try ScrubbingTests.sliderValue(app)
            try desktop.xdotool(["click", "1"])
            var landed = before
            try Desktop.wait("the click to land (decoded ahead at \(at) s)", log: app.log, timeout: 20) {
                landed = try ScrubbingTests.sliderValue(app)
                return abs(landed - before) > 1e-9
            }
            #expect(abs(landed - at) < 1e-6, "decoded ahead at \(at) s, the click landed at \(landed) s")
            try app.element(named: "Play")   // paused before, paused after

            app.stop()
            let summary = try #require(Self.reportLines(app).last { $0["event"] as? String == "summary" })
            #expect(summary["clicks_shown_ahead"] as? Int == 1, "the click was not shown from the picture decoded ahead: \(summary)")
        }
    }
}
