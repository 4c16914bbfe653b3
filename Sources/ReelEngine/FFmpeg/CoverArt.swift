import CFFmpeg
import Foundation

/// The picture a music file carries (ID3 APIC, MP4 covr, FLAC PICTURE, Matroska attachment
/// shown as an attached picture): FFmpeg exposes it as one packet of a stream with the
/// attached-picture disposition, holding the image file's bytes (JPEG or PNG).
/// Threading: `read` blocks on I/O; call it off any UI thread.
public enum CoverArt {
    /// The cover image's bytes, or nil when the media has none (or cannot be opened).
    public static func read(_ source: MediaSource) -> Data? {
        FFmpegLog.configure()
        guard let input = try? MediaInput(source: source, interrupt: InterruptFlag()) else { return nil }
        defer { input.close() }
        let ctx = input.formatContext
        for i in 0..<Int(ctx.pointee.nb_streams) {
            guard let stream = ctx.pointee.streams[i], stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 else { continue }
            let packet = stream.pointee.attached_pic
            guard let data = packet.data, packet.size > 0 else { continue }
            return Data(bytes: data, count: Int(packet.size))
        }
        return nil
    }
}
