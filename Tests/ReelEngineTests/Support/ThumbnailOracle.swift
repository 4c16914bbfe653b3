import Foundation
import ReelEngine
import ReelTestSupport

/// FFmpeg as the outside oracle for thumbnails: ffprobe's list of key frames, and FFmpeg's own
/// scaled RGBA conversion of one frame, compared with a thumbnail by PSNR.
/// Threading: stateless; blocking calls from test threads.
enum ThumbnailOracle {
    /// Presentation times of the video stream's key frames, as ffprobe decodes them with
    /// `-skip_frame nokey`, counted from the container's start as the engine counts.
    static func keyFrames(_ path: String) throws -> [Double] {
        let start = Double(try Command.run(["ffprobe", "-v", "error", "-show_entries", "format=start_time",
                                            "-of", "csv=p=0", path]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let frames = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-skip_frame", "nokey",
                                      "-show_entries", "frame=best_effort_timestamp_time", "-of", "csv=p=0", path]).output
        return frames.split(separator: "\n").compactMap { line in
            Double(line.trimmingCharacters(in: CharacterSet(charactersIn: ", "))).map { $0 - start }
        }.sorted()
    }

    /// The key frame whose time is nearest `t` (the earlier on a tie).
    static func nearest(_ keyFrames: [Double], to t: Double) -> Double {
        keyFrames.min { a, b in
            let da = abs(a - t), db = abs(b - t)
            return da < db || (da == db && a < b)
        }!
    }

    /// FFmpeg's conversion of the frame shown at `time` to `width`×`height` RGBA: the same
    /// libswscale kernel and rounding the engine asks for, and H.264's left chroma siting.
    /// A stream with a display matrix is scaled, then turned as FFmpeg's own tools turn it
    /// (fftools: clockwise by minus the matrix's angle), read from ffprobe.
    static func picture(_ path: String, at time: Double, width: Int, height: Int) throws -> Data {
        // A key frame is compared with several thumbnails (as the right one and as a wrong one):
        // FFmpeg converts it once.
        let key = "\(width)x\(height) \(time) \(path)"
        if let cached = pictures.value[key] { return cached }
        let picture = try convert(path, at: time, width: width, height: height)
        pictures.withLock { $0[key] = picture }
        return picture
    }

    private static let pictures = ReelTestSupport.Locked([String: Data]())

    private static func convert(_ path: String, at time: Double, width: Int, height: Int) throws -> Data {
        let frames = try FrameMD5.of(path).entries
        guard let index = frames.firstIndex(where: { abs($0.pts - time) < 0.0015 }) else {
            throw Command.Failure(command: ["no frame at \(time) in \(path)"], result: .init(status: -1, stdout: Data(), stderr: Data()))
        }
        let angle = try rotation(path)
        let clockwise = ((-angle % 360) + 360) % 360
        let turn = [90: ",transpose=clock", 180: ",hflip,vflip", 270: ",transpose=cclock"][clockwise] ?? ""
        let (w, h) = clockwise % 180 == 90 ? (height, width) : (width, height)
        let scale = "scale=\(w):\(h):flags=bicubic+accurate_rnd+full_chroma_int:in_h_chr_pos=0:in_v_chr_pos=128"
        let result = try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-noautorotate", "-i", path,
                                      "-vf", "select=eq(n\\,\(index)),\(scale),format=rgba\(turn)", "-fps_mode", "passthrough",
                                      "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        guard result.stdout.count == width * height * 4 else {
            throw Command.Failure(command: ["ffmpeg picture at \(time): \(result.stdout.count) bytes"], result: result)
        }
        return result.stdout
    }

    /// FFmpeg's picture of the frame at `time` shaped by hand: `before` on the decoded frame,
    /// scaled to `scaled` (before any turn) as `picture` scales, `after` on the RGBA (the
    /// stream's turn and the person's, written out), `width`×`height` at the end. The display
    /// matrix is not applied for it (`-noautorotate`): `after` says every turn.
    static func shaped(_ path: String, at time: Double, before: String? = nil, scaled: (width: Int, height: Int),
                       after: String? = nil, width: Int, height: Int) throws -> Data {
        let frames = try FrameMD5.of(path).entries
        guard let index = frames.firstIndex(where: { abs($0.pts - time) < 0.0015 }) else {
            throw Command.Failure(command: ["no frame at \(time) in \(path)"], result: .init(status: -1, stdout: Data(), stderr: Data()))
        }
        let scale = "scale=\(scaled.width):\(scaled.height):flags=bicubic+accurate_rnd+full_chroma_int:in_h_chr_pos=0:in_v_chr_pos=128"
        let filters = ["select=eq(n\\,\(index))", before, scale, "format=rgba", after].compactMap { $0 }.joined(separator: ",")
        let result = try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-noautorotate", "-i", path,
                                      "-vf", filters, "-fps_mode", "passthrough",
                                      "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        guard result.stdout.count == width * height * 4 else {
            throw Command.Failure(command: ["ffmpeg shaped picture at \(time): \(result.stdout.count) bytes"], result: result)
        }
        return result.stdout
    }

    private static let rotations = ReelTestSupport.Locked([String: Int]())

    /// The display matrix's angle of the video stream, as ffprobe reads it: asked once per file,
    /// as the tests ask for many pictures of each.
    static func rotation(_ path: String) throws -> Int {
        if let angle = rotations.value[path] { return angle }
        let angle = Int(try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                         "stream_side_data=rotation", "-of", "csv=p=0", path]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        rotations.withLock { $0[path] = angle }
        return angle
    }

    /// PSNR over R, G and B of two RGBA pictures of the same size; infinity when identical.
    static func psnr(_ a: Data, _ b: Data) -> Double {
        precondition(a.count == b.count, "pictures of different sizes")
        var squared = 0.0
        var samples = 0
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                for i in 0..<a.count where i % 4 != 3 {
                    let d = Double(pa[i]) - Double(pb[i])
                    squared += d * d
                    samples += 1
                }
            }
        }
        guard squared > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (squared / Double(samples)))
    }
}

/// A provider's deliveries, kept for a test to wait on.
/// Threading: `deliver` on the provider's thread; waits on the test's thread.
final class ThumbnailRecorder: @unchecked Sendable {
    // Safe: `results` is guarded by `condition`.
    private let condition = NSCondition()
    private var results: [ThumbnailResult] = []
    /// Runs on the provider's thread before each result is recorded (a test can block it).
    var beforeRecording: (@Sendable (ThumbnailResult) -> Void)?

    var deliver: @Sendable (ThumbnailResult) -> Void {
        { [self] result in
            beforeRecording?(result)
            condition.lock()
            results.append(result)
            condition.broadcast()
            condition.unlock()
        }
    }

    var all: [ThumbnailResult] { condition.lock(); defer { condition.unlock() }; return results }

    /// Waits for the answer to the request at `time`; nil after `timeout` seconds.
    func wait(for time: Double, timeout: Double = 30) -> ThumbnailResult? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = results.last(where: { $0.requestedTime == time }) { return found }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// Asks `provider` for `time` and waits for the answer.
    func ask(_ provider: ThumbnailProvider, _ time: Double, size: ThumbnailSize? = nil) throws -> ThumbnailResult {
        provider.request(at: time, size: size)
        guard let result = wait(for: time) else { throw TestPlayer.Timeout(what: "a thumbnail at \(time) s") }
        return result
    }
}
