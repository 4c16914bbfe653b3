import Foundation

/// The picture a file manager shows for a video: `PosterFramePolicy`'s choice among key frames
/// at its candidate times, read by one `KeyFrameReader` (key frames only, one decoder thread),
/// scaled as previews are (display aspect ratio, upright, HDR tone-mapped).
/// Threading: `make` blocks on I/O and decoding, on the calling thread.
public enum PosterFrame {
    /// What was chosen and how it was judged, for a caller that explains itself.
    /// Threading: a value type.
    public struct Choice: Sendable {
        public let thumbnail: Thumbnail
        public let levels: PictureLevels
        public let verdict: PosterFramePolicy.Verdict
        /// Key frames decoded to choose it.
        public let decoded: Int
    }

    /// The first candidate the policy shows as it is, else the best of them. Throws when the
    /// source has no picture or no candidate decodes (damaged, unsupported, empty).
    public static func make(_ source: MediaSource, size: ThumbnailSize,
                            policy: PosterFramePolicy = PosterFramePolicy()) throws(ThumbnailError) -> Choice {
        if case .unavailable(let reason) = source.previewAvailability { throw .unavailable(reason) }
        FFmpegLog.configure()
        let reader = try KeyFrameReader(source: source, interrupt: InterruptFlag())
        defer { reader.close() }
        var best: Choice?
        var tried: Set<Int64> = []
        var firstError: ThumbnailError?
        var decoded = 0
        for time in policy.candidateTimes(duration: reader.duration) {
            // Times that reach a key frame already judged are passed over without a decode.
            if let key = reader.pictureKey(at: time), tried.contains(key) { continue }
            let found: (key: Int64, thumbnail: Thumbnail)
            do { found = try reader.thumbnail(at: time, size: size) { false } } catch {
                firstError = firstError ?? error
                continue
            }
            decoded += 1
            guard tried.insert(found.key).inserted else { continue }
            let thumbnail = found.thumbnail
            let levels = PictureLevels(rgba: thumbnail.pixels, width: thumbnail.width, height: thumbnail.height)
            let choice = Choice(thumbnail: thumbnail, levels: levels, verdict: policy.verdict(levels), decoded: decoded)
            if choice.verdict == .shown { return choice }
            if best.map({ policy.isBetter(levels, than: $0.levels) }) ?? true { best = choice }
        }
        if let best {
            return Choice(thumbnail: best.thumbnail, levels: best.levels, verdict: best.verdict, decoded: decoded)
        }
        throw firstError ?? .unreadable(.corruptData("\(source.displayName): no key frame decodes"))
    }
}
