import Foundation
import ReelTestSupport

/// The outside oracle for deinterlacing: FFmpeg's own run of `bwdif` at field rate
/// (`mode=send_field`) from the start of the file, one picture per field, each with its
/// framemd5 (MD5 of the packed planes) and its time. A field numbered n shows from n × its
/// duration on.
/// Threading: immutable once made.
struct FieldMD5: Sendable {
    typealias Entry = FrameMD5.Entry

    let entries: [Entry]

    static func of(_ path: String) throws -> FieldMD5 {
        let output = try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-i", path,
                                      "-map", "0:v:0", "-vf", "bwdif=mode=send_field", "-c:v", "rawvideo",
                                      "-fps_mode", "passthrough", "-f", "framemd5", "-"]).output
        return FieldMD5(entries: FrameMD5.parse(framemd5: output).sorted { $0.pts < $1.pts })
    }

    /// The field shown at `target`.
    func field(at target: Double) -> (index: Int, entry: Entry) {
        let index = entries.lastIndex { $0.pts <= target + 1e-9 } ?? 0
        return (index, entries[index])
    }
}
