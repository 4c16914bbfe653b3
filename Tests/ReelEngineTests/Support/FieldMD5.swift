import Foundation
import ReelTestSupport

/// The outside oracle for deinterlacing: FFmpeg's own run of `bwdif` at field rate
/// (`mode=send_field`) from the start of the file, one picture per field, each with its
/// framemd5 (MD5 of the packed planes) and its time. A field numbered n shows from n × its
/// duration on.
/// Threading: immutable once made.
struct FieldMD5: Sendable {
    struct Entry: Sendable {
        let pts: Double
        let md5: String
    }

    let entries: [Entry]

    static func of(_ path: String) throws -> FieldMD5 {
        let output = try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-i", path,
                                      "-map", "0:v:0", "-vf", "bwdif=mode=send_field", "-c:v", "rawvideo",
                                      "-fps_mode", "passthrough", "-f", "framemd5", "-"]).output
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
        return FieldMD5(entries: entries.sorted { $0.pts < $1.pts })
    }

    /// The field shown at `target`.
    func field(at target: Double) -> (index: Int, entry: Entry) {
        let index = entries.lastIndex { $0.pts <= target + 1e-9 } ?? 0
        return (index, entries[index])
    }
}
