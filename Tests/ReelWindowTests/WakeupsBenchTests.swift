import Foundation
import ReelTestSupport
import Testing

/// `reel-bench wakeups` runs the app and mpv on a display, paused then playing, and reports
/// their context switches per second and the ratios. Only the plumbing is checked, as for the
/// other benches (`BenchToolTests`): the figures belong in BENCHMARKS.md. It lives with the
/// window tests because it needs their X display.
@Suite("reel-bench wakeups")
struct WakeupsBenchTests {
    @Test("wakeups beside mpv, paused and playing, every figure reported")
    func wakeups() throws {
        let result = try SharedDesktop.standard.use { desktop in
            try desktop.run([ReelApp.built("reel-bench"), "wakeups", try Fixtures.path(.longSmall), "--compare",
                             "--play-seconds", "1"], check: false, extra: ["REEL_FFMPEG_LOG": "quiet"])
        }
        #expect(result.status == 0, "\(result.output) \(result.errors.suffix(500))")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 1, "\(result.output)")
        let text = try #require(lines.last)
        let line = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(line["bench"] as? String == "wakeups")
        #expect(line["seconds"] as? Double == 1)
        for player in ["reel", "mpv"] {
            let figures = try #require(line[player] as? [String: Any], "\(line)")
            // Paused, a player may well not wake at all within a second; playing, it must.
            let paused = figures["paused_per_s"] as? Double ?? (figures["paused_per_s"] as? Int).map(Double.init)
            let playing = figures["playing_per_s"] as? Double ?? (figures["playing_per_s"] as? Int).map(Double.init)
            #expect(paused != nil && paused! >= 0, "\(player): \(figures)")
            #expect(playing != nil && playing! > 0, "\(player): \(figures)")
            let voluntary = figures["playing_voluntary_per_s"] as? Double ?? (figures["playing_voluntary_per_s"] as? Int).map(Double.init)
            #expect(voluntary != nil && voluntary! <= playing!, "\(player): \(figures)")
            let threads = figures["playing_threads"] as? [String: Any] ?? [:]
            #expect(!threads.isEmpty, "\(player): \(figures)")
        }
        #expect(line["ratio_playing"] as? Double != nil, "\(line)")
        #expect(line.keys.contains("ratio_paused"), "\(line)")
    }
}
