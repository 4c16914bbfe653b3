import Foundation
import ReelTestSupport

/// The outside oracle for exact seeks: FFmpeg's own `framemd5` of every decoded video frame
/// (MD5 of the tightly packed planes, in presentation order, with the stream's timestamps).
/// Threading: immutable once made; `of(_:)` caches per file and is safe from any thread.
struct FrameMD5: Sendable {
    struct Entry: Sendable {
        let pts: Double
        let md5: String
    }

    let entries: [Entry]

    private static let cache = Locked([String: FrameMD5]())

    static func of(_ path: String) throws -> FrameMD5 {
        if let cached = cache.value[path] { return cached }
        let oracle = FrameMD5(entries: try hashed(path, probing: []).map(\.entry))
        cache.withLock { $0[path] = oracle }
        return oracle
    }

    /// The entries of stream 0 in `framemd5` output, their timestamps in seconds (rescaled
    /// from the output time base, so rounded to it), in the order printed.
    static func parse(framemd5 output: String) -> [Entry] {
        var timeBase = 1.0
        var entries: [Entry] = []
        for line in output.split(separator: "\n") {
            if line.hasPrefix("#tb 0:") {
                let parts = line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: "/")
                if parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]) { timeBase = n / d }
            }
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !line.hasPrefix("#"), fields.count >= 6, fields[0] == "0", let pts = Double(fields[2]) else { continue }
            entries.append(Entry(pts: pts * timeBase, md5: fields[5]))
        }
        return entries
    }

    /// A frame's hash with its size and pixel format. Threading: a value type.
    struct Shaped: Sendable {
        let entry: Entry
        let width: Int
        let height: Int
        let format: String
    }

    /// Each frame as `of` gives it, with the size and pixel format ffprobe reads from the same
    /// pass that gives its timestamp (not cached). Frames ffprobe has no shape for throw.
    static func shaped(_ path: String) throws -> [Shaped] {
        try hashed(path, probing: ["width", "height", "pix_fmt"]).map { entry, fields in
            guard fields.count >= 3, let width = Int(fields[0]), let height = Int(fields[1]), !fields[2].isEmpty else {
                throw Command.Failure(command: ["ffprobe", path], result: .init(
                    status: -1, stdout: Data(), stderr: Data("no shape for the frame at \(entry.pts): \(fields)".utf8)))
            }
            return Shaped(entry: entry, width: width, height: height, format: fields[2])
        }
    }

    /// The frames' hashes in presentation order, each with ffprobe's values of `fields` (frame
    /// entries that ffprobe prints after the timestamp, in its own order).
    private static func hashed(_ path: String, probing fields: [String]) throws -> [(entry: Entry, fields: [String])] {
        // framemd5 gives each frame's hash, with timestamps rescaled to its output time base and
        // rounded; the exact timestamps come from ffprobe, frame by frame in the same
        // (presentation) order, counted from the container's start as the engine counts.
        // Frames ffprobe has no timestamp for (a last flushed frame) keep framemd5's.
        let md5 = try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-i", path,
                                   "-map", "0:v:0", "-c:v", "rawvideo", "-fps_mode", "passthrough",
                                   "-f", "framemd5", "-"]).output
        let hashed = parse(framemd5: md5)
        let probe = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                     "frame=" + (["best_effort_timestamp_time"] + fields).joined(separator: ","),
                                     "-of", "csv=p=0", path]).output
            .split(separator: "\n").map { line -> (time: Double?, fields: [String]) in
                let values = line.split(separator: ",", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                return (Double(values[0]), Array(values.dropFirst().prefix(fields.count)))
            }
        let start = Double(try Command.run(["ffprobe", "-v", "error", "-show_entries", "format=start_time",
                                            "-of", "csv=p=0", path]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        guard probe.count == hashed.count, !hashed.isEmpty else {
            throw Command.Failure(command: ["framemd5/ffprobe", path], result: .init(
                status: -1, stdout: Data(), stderr: Data("\(hashed.count) hashes but \(probe.count) frames".utf8)))
        }
        let entries = zip(probe, hashed).map { probed, frame in
            (entry: Entry(pts: probed.time.map { $0 - start } ?? frame.pts, md5: frame.md5), fields: probed.fields)
        }
        return entries.sorted { $0.entry.pts < $1.entry.pts }
    }

    /// The frame whose display interval contains `target` (the first frame before the start,
    /// the last frame past the end).
    func frame(at target: Double) -> Entry {
        entries.last(where: { $0.pts <= target + 1e-9 }) ?? entries[0]
    }

    /// How close `target` is to a frame boundary: targets within rounding distance of a
    /// boundary are ambiguous for any implementation and are not used as test points.
    func distanceToBoundary(_ target: Double) -> Double {
        entries.map { abs($0.pts - target) }.min() ?? .infinity
    }

    var duration: Double { (entries.last?.pts ?? 0) - (entries.first?.pts ?? 0) }

    /// Seeded test targets spread over the file, away from frame boundaries.
    func targets(count: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        let start = entries.first?.pts ?? 0, end = entries.last?.pts ?? 0
        var result: [Double] = []
        while result.count < count {
            let t = start + Double(rng.next() % 1_000_000) / 1_000_000 * (end - start + 0.02)
            if distanceToBoundary(t) > 0.002 { result.append(t) }
        }
        return result
    }
}

/// A tiny seeded generator so test targets are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}
