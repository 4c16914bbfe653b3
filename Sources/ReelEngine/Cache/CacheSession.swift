import CFFmpeg
import Foundation

/// The cache as one media input sees it: the top-level resource and every nested resource the
/// demuxer opens through the format context's `io_open` hook (HLS playlists, keys, segments)
/// come from cache entries; only http and https may be opened that way. A resource another
/// player already holds is streamed past the cache instead. Every nested resource is checked
/// by `NestedResources` (no master playlist where a media playlist belongs).
/// Threading: `open` on the loader thread, the hooks on the demux thread (never at once, since
/// one thread uses the format context at a time); `report` may be called from download threads.
final class CacheSession: @unchecked Sendable {
    // Safe: `open`/`nested` are used by one thread at a time (see the contract); the
    // cache is a value; `report` is Sendable.
    let cache: StreamCache
    let interrupt: InterruptFlag
    private let report: @Sendable (CacheReport) -> Void
    private let fetchEverything: Bool
    private var nested: [UnsafeMutableRawPointer: CachedIO] = [:]
    private(set) var top: CachedIO?
    /// Every URL opened through the cache, so a live stream's can be dropped again.
    private var opened: Set<String> = []
    /// The checks on what the demuxer opens, and why a nested open failed.
    let nestedResources: NestedResources
    /// What serves a DASH demuxer's segments from the cache (`CacheSession+Relay`).
    var relay: CacheRelay?
    /// The manifest the DASH demuxer reads, as Reel read it.
    var manifestInput: MemoryInput?

    init(cache: StreamCache, interrupt: InterruptFlag, fetchEverything: Bool = false,
         report: @escaping @Sendable (CacheReport) -> Void) {
        self.cache = cache
        self.interrupt = interrupt
        self.fetchEverything = fetchEverything
        self.report = report
        nestedResources = NestedResources(interrupt: interrupt)
    }

    /// Opens one resource as the top one but with validation as asked (offline downloads of
    /// playlist members); nil when another player holds it.
    func openNested(_ url: String, validate: Bool) throws(PlayerError) -> CachedIO? {
        try cache.prepare()
        guard let io = try open(url, validate: validate, report: report) else { return nil }
        top = io
        return io
    }

    /// Opens the top-level resource; nil when another player holds it (stream it uncached).
    func openTop(_ url: String) throws(PlayerError) -> CachedIO? {
        try cache.prepare()
        cache.evict()
        guard let io = try open(url, validate: true, report: report) else { return nil }
        top = io
        return io
    }

    private func open(_ url: String, validate: Bool, report: @escaping @Sendable (CacheReport) -> Void) throws(PlayerError) -> CachedIO? {
        guard let entry = CacheEntry.open(url: url, directory: cache.directory, needsValidation: validate,
                                              interrupt: interrupt) else { return nil }
        opened.insert(url)
        let download = CacheDownload(entry: entry, options: cache.options, fetchEverything: fetchEverything, report: report)
        return try CachedIO(entry: entry, download: download, interrupt: interrupt)
    }

    /// Waits until the top resource is known good (a response vouched for it, or the network is
    /// gone and the cache holds it), and throws its failure if it has one.
    func waitForTop() throws(PlayerError) {
        guard let top else { return }
        _ = top.entry.length(interrupt: interrupt)
        if let failure = top.entry.currentFailure { throw failure }
    }

    /// Whether the last read of any of its resources failed (see `CachedIO.lastReadFailed`).
    var lastReadFailed: Bool {
        top?.lastReadFailed == true || nested.values.contains { $0.lastReadFailed } || relay?.lastReadFailed == true
    }

    var failure: PlayerError? {
        top?.entry.currentFailure ?? nested.values.lazy.compactMap { $0.entry.currentFailure }.first
    }

    /// Closes every resource still open, then evicts down to the size limit unless told not
    /// to (an offline download evicts once at its end, not after each of thousands of segments).
    func close(evicting: Bool = true) {
        stopRelay()
        for io in nested.values { io.close() }
        nested = [:]
        top?.close()
        top = nil
        if evicting { cache.evict() }
    }

    /// Adds URLs opened past `open` (by the relay) to those `forgetEverything` removes.
    func noteOpened(_ urls: Set<String>) { opened.formUnion(urls) }

    /// Removes every entry this session opened (after `close`): a live stream keeps nothing.
    func forgetEverything() {
        for url in opened { cache.remove(url: url) }
        opened = []
    }

    // MARK: - Nested opens

    /// Installs the hooks in a format context; `self` must outlive it.
    func install(in context: UnsafeMutablePointer<AVFormatContext>) {
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.io_open = { s, pb, url, flags, options in
            guard let s, let pb, let url, let opaque = s.pointee.opaque else { return FFmpegError.io }
            let session = Unmanaged<CacheSession>.fromOpaque(opaque).takeUnretainedValue()
            return session.openNested(String(cString: url), flags: flags, options: options, into: pb)
        }
        context.pointee.io_close2 = { s, pb in
            guard let s, let opaque = s.pointee.opaque else { return 0 }
            return Unmanaged<CacheSession>.fromOpaque(opaque).takeUnretainedValue().closeNested(pb)
        }
    }

    private func openNested(_ url: String, flags: Int32, options: UnsafeMutablePointer<OpaquePointer?>?,
                            into pb: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>) -> Int32 {
        // A remote playlist may only name remote resources: no files, no other protocols.
        let scheme = URL(string: url)?.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", (flags & AVIO_FLAG_WRITE) == 0 else {
            return reel_averror(EPERM)
        }
        // The top resource opened again (a live playlist reloaded, or a playlist naming
        // itself): this session holds its entry, so waiting for it would only lose time.
        if url == top?.entry.url { return nestedResources.openUncached(url, options: options, into: pb) }
        do {
            // Playlists are checked against the server each time (a live one changes); other
            // resources (segments, keys) do not change under the same URL once complete.
            let isPlaylist = url.lowercased().split(separator: "?").first?.hasSuffix(".m3u8") ?? false
            // Only the top resource reports progress; segments are parts of it. A resource
            // another player holds is streamed past the cache.
            guard let io = try open(url, validate: isPlaylist, report: { _ in }) else {
                return nestedResources.openUncached(url, options: options, into: pb)
            }
            guard let context = io.context else { return FFmpegError.io }
            nested[UnsafeMutableRawPointer(context)] = io
            _ = io.entry.length(interrupt: interrupt)
            // Its start is read for the checks, so an answer has come by then.
            let verdict = nestedResources.check(context, url: url)
            // An open must fail as one would over the network when the resource is missing.
            if let failure = io.entry.currentFailure {
                closeNested(context)
                nestedResources.failed(failure, url: url)
                return failure.message.contains("404") ? reel_averror_http_not_found() : FFmpegError.io
            }
            guard verdict >= 0 else {
                closeNested(context)
                return verdict
            }
            pb.pointee = context
            return 0
        } catch {
            nestedResources.failed(error, url: url)
            return FFmpegError.io
        }
    }

    @discardableResult
    private func closeNested(_ pb: UnsafeMutablePointer<AVIOContext>?) -> Int32 {
        guard let pb else { return 0 }
        if let io = nested.removeValue(forKey: UnsafeMutableRawPointer(pb)) {
            io.close()
            return 0
        }
        var p: UnsafeMutablePointer<AVIOContext>? = pb
        return avio_closep(&p)
    }
}
