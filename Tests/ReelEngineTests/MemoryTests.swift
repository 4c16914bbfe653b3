import Foundation
import ReelTestSupport
import Testing

/// Memory stays flat however long playback runs: measured in a separate process (`reel-tool
/// play --max-speed`, `reel-tool switch`), so other tests running alongside cannot blur the
/// figures.
@Suite("Memory")
struct MemoryTests {
    static let loops = 48

    /// The two soaks, started together by whichever of their tests asks first: each is one
    /// process of its own, judged by its own figures (the heap's floor and how many minutes
    /// grew, not the time taken), so two at once on two cores take half as long.
    static let soaks = Once { () throws -> [Result<Command.Result, Error>] in
        _ = try SoundServer.ensure()
        let commands = [
            ["play", try Fixtures.path(.soak), "--max-speed", "--loop", String(loops), "--json"],
            // A 240 Hz display: an open ends when its first picture is shown, and at 60 Hz half
            // of each open's time was the wait for the next tick (opens and memory alike).
            ["switch", try Fixtures.path(.longSmall), try Fixtures.path(.h264MP4), "--count", "1000", "--every", "10",
             "--refresh-rate", "240"],
        ]
        return AtOnce.map(commands) { try ReelToolTests.tool($0) }
    }

    @Test("Memory stays flat over forty-eight minutes of media played at full speed, seeking back each minute")
    func memoryIsFlat() throws {
        let loops = Self.loops
        let result = try Self.soaks.get()[0].get()
        #expect(result.status == 0, "\(result.errors)")
        let lines = try result.output.split(separator: "\n").map(ReelToolTests.json)
        // The tick that follows each "ended" is the memory at the end of that loop.
        var heap: [Double] = []
        var rss: [Double] = []
        var justEnded = false
        for line in lines {
            switch line["event"] as? String {
            case "state": justEnded = line["to"] as? String == "ended"
            case "tick":
                if justEnded, let h = line["heap_mb"] as? Double, let r = line["rss_mb"] as? Double {
                    heap.append(h)
                    rss.append(r)
                }
                justEnded = false
            default: break
            }
        }
        let summary = try #require(lines.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["frames_shown"] as? Int == loops * 1800)
        try #require(heap.count == loops - 1, "memory at \(heap.count) loop ends, expected \(loops - 1)")
        // A leak grows the heap in use (glibc's count of bytes handed out and not given back) at
        // every minute played: one leaked picture is 115 KiB, one leaked packet or small object
        // per frame is tens of KiB a minute. What else moves it is the frame pools' high-water
        // mark: FFmpeg keeps every picture buffer it ever needed at once, and on a loaded
        // machine a starved consumer lets the queue fill at some random minute, a step of a few
        // MiB that then stays flat (measured over 60 loops: steps in 1 to 4 minutes, flat after,
        // with at most 17 pictures alive). So the check is how many minutes grew, not by how
        // much in total: a leak grows nearly all of them, the high-water mark a few.
        let settled = 8
        let steps: [Double] = (settled..<heap.count).map { i -> Double in
            let step: Double = heap[i] - heap[i - 1]
            return (step * 100).rounded() / 100
        }
        let grew = steps.filter { $0 >= 0.03 }
        #expect(grew.count < (heap.count - settled) / 4,
                "the heap grew in \(grew.count) of \(heap.count - settled) minutes: \(steps) (heap at loop ends: \(heap))")
        #expect(rss.max()! < 200, "RSS peaked at \(rss.max()!) MiB for 320x240 video")
    }

    @Test("A thousand switches between files in one player (as a queue moves on) leave memory where it was")
    func switchingIsFlat() throws {
        let result = try Self.soaks.get()[1].get()
        #expect(result.status == 0, "\(result.errors)")
        let lines = try result.output.split(separator: "\n").map(ReelToolTests.json)
        var rss: [Int: Double] = [:], heap: [Int: Double] = [:]
        for line in lines where line["event"] as? String == "switch" {
            guard let n = line["n"] as? Int else { continue }
            if let mb = line["rss_mb"] as? Double { rss[n] = mb }
            if let mb = line["heap_mb"] as? Double { heap[n] = mb }
        }
        try #require(heap.count == 100, "memory at \(heap.count) points: \(result.output)")
        // Judged by glibc's heap in use, not RSS: RSS moves by several MiB either way from one
        // hundred opens to the next (allocator arenas, FFmpeg's frame pools at their high-water
        // mark), and the heap in use by up to 4 MiB with the moment it is read (mid-decode or
        // between items). Its floor, though, stays: one leaked codec context, packet or thread
        // stack per open raises the floor by megabytes over the 500 opens between the windows
        // (4 KiB per open is 2 MiB). Read every ten opens: read every hundred, the five reads of
        // the late window all fell mid-decode now and then, and their lowest was no floor.
        let early = (100...400).compactMap { heap[$0] }.min()!
        let late = (600...1000).compactMap { heap[$0] }.min()!
        let table = (1...10).map { n in "\(n * 100): heap \(heap[n * 100] ?? -1) rss \(rss[n * 100] ?? -1)" }
        #expect(late - early < 2, "the heap in use rose from a floor of \(early) MiB to \(late): \(table)")
        #expect(rss.values.max()! < 200, "RSS peaked at \(rss.values.max()!) MiB: \(table)")
    }
}

extension Fixtures.Spec {
    /// The soak's minute: `longSmall`'s pictures, frames and sound, encoded for fast decoding
    /// (no CABAC, no deblocking). The engine's work per frame, the pictures' size (what one
    /// leaked picture weighs) and the frames a minute (what a leak per frame adds up to) are
    /// the same; FFmpeg's decoding, which was most of the soak's CPU, takes 40 % less.
    static let soak = video("soak-small", ext: "mp4", rate: "30", seconds: 60,
                            codec: ["-c:v", "libx264", "-preset", "veryfast", "-tune", "fastdecode", "-g", "60",
                                    "-pix_fmt", "yuv420p"],
                            audio: sine(60, codec: ["-c:a", "aac", "-b:a", "64k"]))
}
