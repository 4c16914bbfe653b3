import CFFmpeg

/// The network layer a remote `MediaInput` opens through: the disk cache (when the source is
/// cached) and the checks on what a remote playlist opens inside the media (always, the
/// cache's own when cached). Local files have none (`make` answers nil).
/// Threading: as `MediaInput`: the thread that opens and reads the input.
final class StreamAccess: RemoteOpening {
    /// The disk cache remote bytes come through (nil: straight from FFmpeg's http).
    let cache: CacheSession?
    /// The checks on what a remote playlist opens inside the media.
    private let nested: NestedResources

    private init(cache: CacheSession?, nested: NestedResources) {
        self.cache = cache
        self.nested = nested
    }

    /// What opening `source` goes through: nil for a local file.
    static func make(for source: MediaSource, cache: CacheSession?, interrupt: InterruptFlag) -> StreamAccess? {
        guard source.isRemote else { return nil }
        return StreamAccess(cache: cache, nested: cache?.nestedResources ?? NestedResources(interrupt: interrupt))
    }

    func openBytes(_ source: MediaSource) throws(PlayerError) -> UnsafeMutablePointer<AVIOContext>? {
        guard let cache else { return nil }
        return try MediaInput.openCached(source, cache: cache)
    }

    func demuxer(io: UnsafeMutablePointer<AVIOContext>, url: String, probed: UnsafePointer<AVInputFormat>?,
                 score: Int32) -> UnsafePointer<AVInputFormat>? {
        DashRecognition.demuxer(url: url, contentType: DashRecognition.contentType(of: io, cache: cache),
                                probed: probed, score: score)
    }

    func install(in context: UnsafeMutablePointer<AVFormatContext>) {
        if let cache { cache.install(in: context) } else { nested.install(in: context) }
    }

    func demuxerInput(_ url: String, format: UnsafePointer<AVInputFormat>?,
                      io: UnsafeMutablePointer<AVIOContext>) throws(PlayerError) -> (url: String, io: UnsafeMutablePointer<AVIOContext>) {
        try cache?.demuxerInput(url, format: format, io: io) ?? (url, io)
    }

    var failure: PlayerError? { cache?.failure ?? nested.problem ?? cache?.relay?.failure }

    var nestedProblem: PlayerError? { nested.problem }

    func opened() { nested.opening = false }

    func close() -> Bool {
        guard let cache else { return false }
        let ownsBytes = cache.top != nil
        cache.close()
        return ownsBytes
    }

    func waitForData(interrupt: InterruptFlag) -> Bool {
        guard let entry = cache?.top?.entry else { return false }
        entry.waitForArrival(interrupt: interrupt)
        return true
    }
}
