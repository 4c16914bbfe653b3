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

    @Test("A thousand switches between files in one player (as a queue moves on) leave memory where it was")
    func switchingIsFlat() throws {
        _ = try SoundServer.ensure()
        let result = try ReelToolTests.tool(["switch", try Fixtures.path(.longSmall), try Fixtures.path(.h264MP4),
                                             "--count", "1000", "--every", "100"])
        #expect(result.status == 0, "\(result.errors)")
        let lines = try result.output.split(separator: "\n").map(ReelToolTests.json)
        var rss: [Int: Double] = [:]
        for line in lines where line["event"] as? String == "switch" {
            if let n = line["n"] as? Int, let mb = line["rss_mb"] as? Double { rss[n] = mb }
        }
        try #require(rss.count == 10, "memory at \(rss.count) points: \(result.output)")
        // The first couple of hundred opens build the working set (decoder and thread pools,
        // allocator arenas); from then on it moves by a couple of MiB either way. One leaked
        // codec context or thread stack per open would add megabytes every hundred.
        let settled = rss[200]!
        let later = (300...1000).compactMap { rss[$0] }
        #expect(rss[1000]! - settled < 4, "RSS went from \(settled) MiB after 200 opens to \(rss[1000]!) after 1000: \(rss.sorted { $0.key < $1.key })")
        #expect(later.max()! - settled < 5, "RSS peaked at \(later.max()!) MiB after settling at \(settled): \(rss.sorted { $0.key < $1.key })")
    }
}
