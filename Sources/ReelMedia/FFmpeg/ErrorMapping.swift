import CFFmpeg
import Foundation

/// Turns FFmpeg's error codes from opening media into Reel's typed errors.
/// Threading: pure functions.
package enum ErrorMapping {
    /// Maps a failure of the protocol layer (opening the bytes) for `source`.
    package static func openError(_ code: Int32, source: MediaSource) -> PlayerError {
        let shown = source.displayName
        switch code {
        case FFmpegError.posix(ENOENT), FFmpegError.posix(ENOTDIR):
            return .fileNotFound(shown)
        case FFmpegError.posix(EACCES), FFmpegError.posix(EPERM):
            return .permissionDenied(shown)
        case FFmpegError.posix(EISDIR):
            return .notMediaFile("\(shown) is a folder")
        case reel_averror_protocol_not_found():
            return .unsupportedSource(shown)
        case reel_averror_http_not_found():
            return .networkError("HTTP 404 Not Found: \(shown)")
        case reel_averror_http_forbidden():
            return .networkError("HTTP 403 Forbidden: \(shown)")
        case reel_averror_http_unauthorized():
            return .networkError("HTTP 401 Unauthorized: \(shown)")
        case reel_averror_http_bad_request():
            return .networkError("HTTP 400 Bad Request: \(shown)")
        case reel_averror_http_other_4xx():
            return .networkError("HTTP client error (4xx): \(shown)")
        case reel_averror_http_server_error():
            return .networkError("HTTP server error (5xx): \(shown)")
        case FFmpegError.exit:
            return .networkError("timed out or cancelled while opening \(shown)")
        default:
            break
        }
        if source.isRemote {
            return .networkError("\(FFmpegError.text(for: code)): \(shown)")
        }
        return .notMediaFile("\(shown) (\(FFmpegError.text(for: code)))")
    }
}
