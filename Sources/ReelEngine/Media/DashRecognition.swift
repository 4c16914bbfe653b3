import CFFmpeg
import Foundation

/// Which remote addresses are DASH when FFmpeg's content probe does not say so: FFmpeg's DASH
/// probe wants a DASH profile name near the start of the manifest, which a manifest without
/// `profiles` (or with it past what is probed) lacks. An address whose path ends in `.mpd`, or
/// that the server serves as `application/dash+xml`, is then opened with the DASH demuxer
/// rather than refused as "not media" (and handed to a web-page extractor).
/// Threading: pure.
enum DashRecognition {
    static let mediaType = "application/dash+xml"

    /// Whether `url` (its path, not the query) or the server's `contentType` says DASH.
    static func isDash(url: String, contentType: String?) -> Bool {
        if let contentType, contentType.lowercased().hasPrefix(mediaType) { return true }
        guard let components = URLComponents(string: url) else { return false }
        return components.path.lowercased().hasSuffix(".mpd")
    }

    /// FFmpeg's DASH demuxer, for a remote `url` the probe found nothing in (or only guessed
    /// at) that its name or type says is DASH; nil otherwise.
    static func demuxer(url: String, contentType: String?, probed: UnsafePointer<AVInputFormat>?,
                        score: Int32) -> UnsafePointer<AVInputFormat>? {
        guard probed == nil || score <= reel_probe_score_retry(), isDash(url: url, contentType: contentType) else { return nil }
        return av_find_input_format("dash")
    }

    /// The media type a remote input's server gave: the cache entry's record, or FFmpeg's http
    /// context's `mime_type`.
    static func contentType(of io: UnsafeMutablePointer<AVIOContext>, cache: CacheSession?) -> String? {
        if let top = cache?.top { return top.entry.contentType }
        var value: UnsafeMutablePointer<UInt8>?
        guard av_opt_get(io, "mime_type", AV_OPT_SEARCH_CHILDREN, &value) >= 0, let value else { return nil }
        defer { av_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
