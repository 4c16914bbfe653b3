import CFFmpeg
import Foundation

/// FFmpeg's own log goes to stderr. A player reports damage as counted errors and typed
/// failures instead, so by default only fatal messages pass; `REEL_FFMPEG_LOG` (quiet, error,
/// warning, info, verbose, debug) turns them back on for diagnosis.
/// Threading: `configure` is idempotent and thread-safe.
package enum FFmpegLog {
    private static let configured = Locked(false)

    package static func configure() {
        configured.withLock { done in
            guard !done else { return }
            done = true
            let levels: [String: Int32] = ["quiet": AV_LOG_QUIET, "error": AV_LOG_ERROR, "warning": AV_LOG_WARNING,
                                           "info": AV_LOG_INFO, "verbose": AV_LOG_VERBOSE, "debug": AV_LOG_DEBUG]
            let wanted = ProcessInfo.processInfo.environment["REEL_FFMPEG_LOG"].flatMap { levels[$0] }
            av_log_set_level(wanted ?? AV_LOG_FATAL)
        }
    }
}
