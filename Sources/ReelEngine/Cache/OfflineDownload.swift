import Foundation

/// Fetches a remote resource wholly into the cache without playing it (preload, "download for
/// offline"). Bytes already cached are kept; only the gaps are requested.
/// Threading: `run` blocks the calling thread until done; `cancel` from any thread.
public final class OfflineDownload: Sendable {
    public let url: String
    let options: StreamCacheOptions
    let interrupt = InterruptFlag()

    public init(url: String, options: StreamCacheOptions = StreamCacheOptions()) throws(PlayerError) {
        let source = try MediaSource(parsing: url)
        guard source.isRemote else { throw .unsupportedSource("\(url) is not an http(s) URL") }
        self.url = source.ffmpegURL
        self.options = options
    }

    public func cancel() { interrupt.abort() }

    /// Downloads until complete and returns the cached file's path; `progress` is called on
    /// this thread a few times a second. An HLS playlist is fetched with everything it names
    /// (variants, renditions, keys, segments), so it plays offline; a live one is refused. A
    /// DASH manifest is kept with every segment of every representation (`keepDash`).
    /// Only the top playlist's playlists are followed (a master's variants; a variant is a
    /// media playlist and names only segments), each resource once, and the whole must fit
    /// the cache's size limit: a playlist naming itself, a chain of playlists or an endless
    /// list of segments ends instead of fetching for ever.
    public func run(progress: (DownloadProgress) -> Void) throws(PlayerError) -> String {
        defer { StreamCache(options: options).evict() }
        let path = try fetch(url, validate: true, done: 0, progress: progress)
        if let data = FileManager.default.contents(atPath: path), DashManifest.isManifest(data) {
            if DashManifest.isLive(String(decoding: data, as: UTF8.self)) {
                throw .unsupportedSource("\(url) is a live stream: it cannot be kept offline")
            }
            try keepDash(done: Int64(data.count), progress: progress)
            return path
        }
        guard let data = FileManager.default.contents(atPath: path), PlaylistLinks.isPlaylist(data) else { return path }
        var done = Int64(data.count)
        var queue = [(url: url, text: String(decoding: data, as: UTF8.self), isTop: true)]
        var fetched: Set<String> = [url]
        while !queue.isEmpty {
            let (base, text, isTop) = queue.removeFirst()
            // A master where a media playlist belongs names nothing playback would use.
            if !isTop && PlaylistLinks.isMaster(text) { continue }
            if PlaylistLinks.isLive(text) { throw .unsupportedSource("\(base) is a live stream: it cannot be kept offline") }
            for link in PlaylistLinks.links(in: text, base: base) where fetched.insert(link).inserted {
                // Segments are never checked again once whole (as when they play); playlists are.
                let isPlaylist = link.lowercased().split(separator: "?").first?.hasSuffix(".m3u8") ?? false
                let linkPath = try fetch(link, validate: isPlaylist, done: done, progress: progress)
                let bytes = FileManager.default.contents(atPath: linkPath) ?? Data()
                done += Int64(bytes.count)
                if done > options.sizeLimit {
                    throw .unsupportedSource("\(url) is larger than the cache may hold (\(options.sizeLimit >> 20) MB): it cannot be kept offline")
                }
                if isTop && PlaylistLinks.isPlaylist(bytes) { queue.append((link, String(decoding: bytes, as: UTF8.self), false)) }
            }
        }
        return path
    }

    /// Fetches one resource wholly; progress counts `done` bytes of earlier resources too.
    private func fetch(_ resource: String, validate: Bool, done: Int64,
                       progress: (DownloadProgress) -> Void) throws(PlayerError) -> String {
        let session = CacheSession(cache: StreamCache(options: options), interrupt: interrupt,
                                   fetchEverything: true) { _ in }
        guard let io = try session.openNested(resource, validate: validate) else {
            throw .networkError("\(resource) is being downloaded by another player")
        }
        // Evicting after each of thousands of segments would read the whole cache each time.
        defer { session.close(evicting: false) }
        while true {
            let status = io.entry.status
            let total = status.length.map { $0 + done }
            // Ranges only mean something for a single file.
            progress(DownloadProgress(bytes: status.bytes + done, expected: total,
                                      ranges: done == 0 ? status.ranges.ranges : []))
            if status.complete && io.entry.isValidated { return io.entry.dataPath }
            if let failure = io.entry.currentFailure { throw failure }
            if interrupt.isAborted { throw .networkError("cancelled: \(resource)") }
            io.entry.waitForCompletion(seconds: 0.1)
        }
    }
}
