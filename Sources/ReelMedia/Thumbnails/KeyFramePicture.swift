import Foundation

/// One picture of a video, made at once on the calling thread: the key frame nearest a time,
/// scaled as a thumbnail is (display aspect ratio, upright), for a still that stands for the
/// whole file (the desktop's "now playing" art) rather than for a hover over the scrubber.
/// Threading: `make` blocks on I/O and decoding; call it off any UI thread.
public enum KeyFramePicture {
    /// The key frame nearest `seconds` (from the media's start) at `size`. Throws when the
    /// source has no picture (sound alone, only cover art) or cannot be read; remote media
    /// are refused as previews are (a second download of the stream for one picture).
    public static func make(_ source: MediaSource, at seconds: Double,
                            size: ThumbnailSize) throws(ThumbnailError) -> Thumbnail {
        if case .unavailable(let reason) = source.previewAvailability { throw .unavailable(reason) }
        FFmpegLog.configure()
        let reader = try KeyFrameReader(source: source, interrupt: InterruptFlag())
        defer { reader.close() }
        return try reader.thumbnail(at: max(0, seconds), size: size) { false }.thumbnail
    }
}
