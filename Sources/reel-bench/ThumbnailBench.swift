import Foundation
import ReelCommandLine
import ReelEngine

/// `bench thumbnail`: a file manager's thumbnail of each file, `reel-thumbnailer -s SIZE` from
/// this build beside Debian's `ffmpegthumbnailer -s SIZE` (its defaults: a tenth of the way in,
/// a frame chosen past dark ones), each a fresh process as the desktop runs them, in
/// alternation. Per file the median wall time and the largest peak RSS of each; over all files
/// the sums of the medians and the largest peak, and the worst file's ratios.
/// Threading: runs on the calling thread; children are spawned one at a time.
struct ThumbnailBench {
    let files: [String]
    let runs: Int
    let size: Int
    let compare: Bool
    /// zzuf-damaged copies of each file (seeds 1...n, 2 % of bytes) timed through reel-thumbnailer.
    var damagedSeeds = 3

    private let timeout = 60.0

    func run() throws -> [String: Any] {
        let thumbnailer = try BenchSetup.sibling("reel-thumbnailer", for: "thumbnail")
        let peer = compare ? try Self.locatePeer() : nil
        let folder = NSTemporaryDirectory() + "/reel-bench-thumbnail-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var perFile: [[String: Any]] = []
        var reelTotal = 0.0, peerTotal = 0.0, reelPeak = 0.0, peerPeak = 0.0
        var worstTime = 0.0, worstMemory = 0.0
        for file in files {
            guard FileManager.default.fileExists(atPath: file) else { throw PlayerError.fileNotFound(file) }
            var reelMs: [Double] = [], peerMs: [Double] = []
            var reelRSS = 0.0, peerRSS = 0.0
            for _ in 1...runs {
                let reel = try measure(thumbnailer, ["-s", String(size), file, folder + "/reel.png"], folder + "/reel.png")
                reelMs.append(reel.ms)
                reelRSS = max(reelRSS, reel.rss)
                if let peer {
                    let other = try measure(peer, ["-s", String(size), "-i", file, "-o", folder + "/peer.png"], folder + "/peer.png")
                    peerMs.append(other.ms)
                    peerRSS = max(peerRSS, other.rss)
                }
            }
            let reel = Percentiles.median(reelMs)
            var entry: [String: Any] = ["file": (file as NSString).lastPathComponent, "ms": Output.round(reel, 1),
                                        "peak_rss_mb": Output.round(reelRSS, 1)]
            reelTotal += reel
            reelPeak = max(reelPeak, reelRSS)
            var line = "bench thumbnail \((file as NSString).lastPathComponent): reel \(Output.round(reel, 1)) ms, \(Output.round(reelRSS, 1)) MB"
            if peer != nil {
                let other = Percentiles.median(peerMs)
                entry["ffmpegthumbnailer_ms"] = Output.round(other, 1)
                entry["ffmpegthumbnailer_peak_rss_mb"] = Output.round(peerRSS, 1)
                entry["ratio"] = benchRatio(reel, other) as Any
                entry["ratio_memory"] = benchRatio(reelRSS, peerRSS) as Any
                peerTotal += other
                peerPeak = max(peerPeak, peerRSS)
                if other > 0 { worstTime = max(worstTime, reel / other) }
                if peerRSS > 0 { worstMemory = max(worstMemory, reelRSS / peerRSS) }
                line += "; ffmpegthumbnailer \(Output.round(other, 1)) ms, \(Output.round(peerRSS, 1)) MB"
            }
            Output.note(line)
            perFile.append(entry)
        }
        var result: [String: Any] = [
            "bench": "thumbnail", "size": size, "runs": runs, "files": perFile,
            "ms_total": Output.round(reelTotal, 1), "peak_rss_mb": Output.round(reelPeak, 1),
        ]
        if damagedSeeds > 0 {
            for (key, value) in try damaged(thumbnailer, folder: folder) { result[key] = value }
        }
        if peer != nil {
            result["ffmpegthumbnailer_ms_total"] = Output.round(peerTotal, 1)
            result["ffmpegthumbnailer_peak_rss_mb"] = Output.round(peerPeak, 1)
            result["ratio"] = benchRatio(reelTotal, peerTotal) as Any
            result["ratio_memory"] = benchRatio(reelPeak, peerPeak) as Any
            result["ratio_worst_file"] = Output.round(worstTime, 3)
            result["ratio_memory_worst_file"] = Output.round(worstMemory, 3)
        }
        return result
    }

    /// One thumbnail: spawn to exit in milliseconds and the peak RSS in MiB; the PNG must be
    /// there afterwards (it is removed for the next run).
    private func measure(_ program: String, _ arguments: [String], _ output: String) throws -> (ms: Double, rss: Double) {
        unlink(output)
        let child = try ChildProcess(path: program, arguments: arguments, stdout: .discard)
        let exit = try child.finish(timeout: timeout)
        guard exit.succeeded, access(output, R_OK) == 0 else {
            throw ToolFailure(code: "peer_failed", message: "\((program as NSString).lastPathComponent) \(arguments.joined(separator: " ")) \(exit.summary)")
        }
        unlink(output)
        return (exit.wallSeconds * 1000, exit.peakRSSMegabytes)
    }

    /// Each file damaged by zzuf, once per seed: reel-thumbnailer must end with status 0 and a
    /// PNG, or status 1 and no file; how long each took, the slowest and the median.
    private func damaged(_ thumbnailer: String, folder: String) throws -> [String: Any] {
        guard let zzuf = Peer.find("zzuf") else {
            throw ToolFailure(code: "peer_missing", message: "bench thumbnail damages files with zzuf (apt-get install zzuf), or pass --damaged-seeds 0")
        }
        var ms: [Double] = []
        var failed = 0, pictures = 0
        for file in files {
            for seed in 1...damagedSeeds {
                let copy = folder + "/damaged." + (file as NSString).pathExtension
                let output = folder + "/damaged.png"
                unlink(output)
                let damage = try ChildProcess(path: "/bin/sh", arguments: ["-c", "exec \"$0\" -s \(seed) -r 0.02 < \"$1\" > \"$2\"", zzuf, file, copy],
                                              stdout: .discard)
                guard try damage.finish(timeout: timeout).succeeded else {
                    throw ToolFailure(code: "peer_failed", message: "zzuf could not damage \(file)")
                }
                let child = try ChildProcess(path: thumbnailer, arguments: ["-s", String(size), copy, output], stdout: .discard)
                let exit = try child.finish(timeout: timeout)
                let wrote = access(output, R_OK) == 0
                switch (exit.code, wrote) {
                case (0, true): pictures += 1
                case (1, false): failed += 1
                default:
                    throw ToolFailure(code: "internal_error",
                                      message: "reel-thumbnailer on \(file) damaged by zzuf seed \(seed): \(exit.summary), \(wrote ? "a file" : "no file")")
                }
                ms.append(exit.wallSeconds * 1000)
            }
        }
        Output.note("bench thumbnail damaged: \(ms.count) runs, \(failed) failed cleanly, \(pictures) pictures, slowest \(Output.round(ms.max() ?? 0, 1)) ms")
        return ["damaged_runs": ms.count, "damaged_failed": failed, "damaged_pictures": pictures,
                "damaged_median_ms": Output.round(Percentiles.median(ms), 1), "damaged_max_ms": Output.round(ms.max() ?? 0, 1)]
    }

    static func locatePeer() throws(ToolFailure) -> String {
        guard let path = Peer.find("ffmpegthumbnailer") else {
            throw ToolFailure(code: "peer_missing",
                              message: "--compare needs ffmpegthumbnailer on PATH (Debian: apt-get install ffmpegthumbnailer, or scripts/install-deps.sh)")
        }
        return path
    }
}
