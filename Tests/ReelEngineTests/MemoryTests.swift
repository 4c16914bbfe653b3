import Foundation
import ReelTestSupport
import Testing

/// Memory stays flat however long playback runs: measured in a separate process (`reel-tool
/// play --max-speed`), so other tests running alongside cannot blur the figures.
@Suite("Memory")
struct MemoryTests {
    @Test("RSS stays flat over twelve minutes of media played at full speed, seeking back each minute")
    func rssIsFlat() throws {
        let loops = 12
        let result = try ReelToolTests.tool(["play", try Fixtures.path(.longSmall), "--max-speed",
                                             "--loop", String(loops), "--json"])
        #expect(result.status == 0, "\(result.errors)")
        let lines = try result.output.split(separator: "\n").map(ReelToolTests.json)
        // The tick that follows each "ended" is the memory at the end of that loop; the summary
        // holds it for the last.
        var perLoop: [Double] = []
        var justEnded = false
        for line in lines {
            switch line["event"] as? String {
            case "state": justEnded = line["to"] as? String == "ended"
            case "tick":
                if justEnded, let rss = line["rss_mb"] as? Double { perLoop.append(rss) }
                justEnded = false
            default: break
            }
        }
        let summary = try #require(lines.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["frames_shown"] as? Int == loops * 1800)
        if let rss = summary["rss_mb"] as? Double { perLoop.append(rss) }
        try #require(perLoop.count == loops, "memory at \(perLoop.count) loop ends, expected \(loops)")
        // The first minutes build the working set (decoder pools, queues, allocator arenas; it
        // settles within about eight here). After that a leak grows with every minute played,
        // and a leaked frame alone is 115 KiB, so eight more minutes would show megabytes.
        let growth = perLoop[loops - 1] - perLoop[3]
        #expect(growth < 2, "RSS grew \(growth) MiB from loop 4 to loop \(loops): \(perLoop)")
        #expect(perLoop.max()! < 200, "RSS peaked at \(perLoop.max()!) MiB for 320x240 video")
    }
}
