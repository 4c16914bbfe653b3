import Foundation

/// Fetches a remote resource wholly into the cache without playing it (preload, "download for
/// offline"). Bytes already cached are kept; only the gaps are requested.
/// Threading: `run` blocks the calling thread until done; `cancel` from any thread.
public final class OfflineDownload: Sendable {
    public let url: String
    private let options: StreamCacheOptions
    private let interrupt = InterruptFlag()

    public init(url: String, options: StreamCacheOptions = StreamCacheOptions()) throws(PlayerError) {
        let source = try MediaSource(parsing: url)
        guard source.isRemote else { throw .unsupportedSource("\(url) is not an http(s) URL") }
        self.url = source.ffmpegURL
        self.options = options
    }

    public func cancel() { interrupt.abort() }

    /// Downloads until complete and returns the cached file's path; `progress` is called on
    /// this thread a few times a second.
    public func run(progress: (DownloadProgress) -> Void) throws(PlayerError) -> String {
        let session = CacheSession(cache: StreamCache(options: options), interrupt: interrupt,
                                   fetchEverything: true) { _ in }
        guard let io = try session.openTop(url) else {
            throw .networkError("\(url) is being downloaded by another player")
        }
        defer { session.close() }
        while true {
            let status = io.entry.status
            progress(DownloadProgress(bytes: status.bytes, expected: status.length, ranges: status.ranges.ranges))
            if status.complete && io.entry.isValidated { return io.entry.dataPath }
            if let failure = io.entry.currentFailure { throw failure }
            if interrupt.isAborted { throw .networkError("cancelled: \(url)") }
            usleep(200_000)
        }
    }
}
