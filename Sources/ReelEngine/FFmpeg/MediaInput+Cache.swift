import CFFmpeg

/// The cached half of opening remote media (see `CacheSession`).
extension MediaInput {
    /// Opens `source`: a remote one through the network layer (`StreamAccess`: the disk cache
    /// when `cache` is given, the checks on nested playlists always).
    convenience init(source: MediaSource, interrupt: InterruptFlag, cache: CacheSession? = nil,
                     headers: RequestHeaders = RequestHeaders(),
                     headerRead: (_ duration: Double?) -> Void = { _ in }) throws(PlayerError) {
        try self.init(source: source, interrupt: interrupt,
                      remote: StreamAccess.make(for: source, cache: cache, interrupt: interrupt),
                      headers: headers, headerRead: headerRead)
    }

    /// The disk cache the bytes come through, when they do.
    var cache: CacheSession? { (remote as? StreamAccess)?.cache }

    /// The cached input's context, or nil when the resource is held by another player (the
    /// caller then streams it uncached). Throws the resource's failure (404, refused redirect, ...).
    static func openCached(_ source: MediaSource, cache: CacheSession) throws(PlayerError) -> UnsafeMutablePointer<AVIOContext>? {
        guard let io = try cache.openTop(source.ffmpegURL) else { return nil }
        do {
            try cache.waitForTop()
        } catch {
            cache.close()
            throw error
        }
        return io.context
    }

    /// Why reading the cached input stopped, when the network is the reason.
    var cacheFailure: PlayerError? { cache?.failure }

    /// The cached input's last read failed or was cut short (on the thread that reads it).
    var cacheReadFailed: Bool { cache?.lastReadFailed ?? false }

    /// A live stream (HLS or DASH without an end) is played without caching: it never ends and
    /// its segments are not watched twice.
    var isLiveStream: Bool {
        guard let ctx = context, let name = ctx.pointee.iformat?.pointee.name else { return false }
        return ["hls", "dash"].contains(String(cString: name))
            && (ctx.pointee.duration <= 0 || ctx.pointee.duration == reel_nopts_value())
    }
}

extension MediaInput {
    /// Opens `source`, remote media through the disk cache when `options` allow it; a live
    /// stream found behind a cached open is opened again uncached. Cache reports become
    /// player events.
    static func opening(_ source: MediaSource, options: StreamCacheOptions, interrupt: InterruptFlag,
                        fetchEverything: Bool = false,
                        events: @escaping @Sendable (PlayerEvent) -> Void,
                        headerRead: (_ duration: Double?) -> Void = { _ in }) throws(PlayerError) -> MediaInput {
        guard source.isRemote, options.enabled else {
            return try MediaInput(source: source, interrupt: interrupt, headers: options.requestHeaders, headerRead: headerRead)
        }
        let session = CacheSession(cache: StreamCache(options: options), interrupt: interrupt,
                                   fetchEverything: fetchEverything) { report in
            switch report {
            case .progress(let bytes, let expected, let ranges):
                events(.downloadProgress(DownloadProgress(bytes: bytes, expected: expected, ranges: ranges.ranges)))
            case .finished(let path): events(.downloadFinished(path: path))
            case .failed(let error): events(.downloadFailed(error))
            case .reconnecting(let attempt, let reason): events(.reconnecting(attempt: attempt, reason: reason))
            }
        }
        let input = try MediaInput(source: source, interrupt: interrupt, cache: session, headers: options.requestHeaders,
                                   headerRead: headerRead)
        guard input.isLiveStream else { return input }
        input.close()
        session.forgetEverything()
        return try MediaInput(source: source, interrupt: interrupt, headers: options.requestHeaders, headerRead: headerRead)
    }
}
