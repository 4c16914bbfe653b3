import CLinux
import Foundation

/// Hover previews of one media source: small pictures of the key frame nearest a time, from a
/// decode path of their own — a separate format context and a one-thread decoder on one
/// low-priority thread — never a second player, and sharing nothing with a playing session's
/// threads, so playback does not stutter while a person hovers over the scrubber.
///
/// - `request(at:)` is cheap and never blocks: the newest request replaces any that is still
///   waiting (stale ones are dropped, not queued); one being decoded finishes and is delivered.
/// - Pictures are shaped as the movie is (the person's crop, aspect, turns and mirror, named
///   with each request; not zoom or pan) and kept in an LRU cache bounded by bytes, keyed by
///   key frame, size and shape, so every hover position that shows the same key frame in the
///   same shape is answered from it.
/// - The source is opened at the first request. Whether it may be opened at all is
///   `MediaSource.previewAvailability`'s decision (remote media: not while streaming).
///
/// Threading: every method may be called from any thread. Results are delivered, in request
/// order, on the provider's own decode thread ("reel.thumbs", nice +10); a host hops from
/// there to its UI thread. No delivery happens after `close()` returns.
public final class ThumbnailProvider: Sendable {
    public let source: MediaSource
    private let core: Core

    /// How much lower the decode thread runs than normal threads (Linux nice: 0 normal, 19 lowest).
    /// Ten gives it about a tenth of a busy core's time against playback's threads at 0.
    public static let niceness: Int32 = 10

    /// 24 MiB: about 130 pictures 160 pixels high at 16:9, a scrubber's worth of key frames.
    public static let defaultCacheBytes = 24 << 20

    /// What the provider has done so far. Threading: a value type.
    public struct Statistics: Sendable, Equatable {
        public var requests = 0
        /// Requests replaced by a newer one before they were started.
        public var dropped = 0
        public var decoded = 0
        public var cacheHits = 0
        public var failures = 0
        public var cachedPictures = 0
        public var cachedBytes = 0
    }

    /// - Parameters:
    ///   - size: the size of each picture unless a request names another.
    ///   - cacheBytes: the cache's budget for pixels (0 keeps nothing).
    ///   - deliver: called with each result, on the provider's decode thread.
    public init(source: MediaSource, size: ThumbnailSize = .standard, cacheBytes: Int = ThumbnailProvider.defaultCacheBytes,
                deliver: @escaping @Sendable (ThumbnailResult) -> Void) {
        self.source = source
        core = Core(source: source, size: size, cacheBytes: cacheBytes, deliver: deliver)
    }

    /// Closes, so that a provider nobody holds stops its thread and closes its file.
    deinit { core.close() }

    /// The size of pictures for requests that name none.
    public var size: ThumbnailSize {
        get { core.size }
        set { core.size = newValue }
    }

    public var statistics: Statistics { core.statistics }

    /// Asks for the picture at `seconds` (from the media's start), shaped by `transform`; the
    /// answer comes through `deliver`. A request still waiting when a newer one comes is
    /// dropped. Ignored after `close`.
    public func request(at seconds: Double, size: ThumbnailSize? = nil, transform: PictureTransform = .identity) {
        core.request(at: seconds, size: size, transform: transform)
    }

    /// Stops the provider: a decode under way is abandoned at its next packet, the file is
    /// closed, and nothing is delivered once this returns. Called from inside `deliver`, it
    /// stops the thread after that delivery instead of waiting for it.
    public func close() { core.close() }
}

extension ThumbnailProvider {
    /// The shared state and the decode thread. The thread holds the core, never the provider,
    /// so a provider that is let go closes itself.
    /// Threading: public entry points from any thread; `run` on the decode thread.
    private final class Core: @unchecked Sendable {
        // Safe: the mutable fields are guarded by `condition`; the decode state (reader, cache)
        // lives in `run`'s locals on the decode thread.
        private let source: MediaSource
        private let condition = NSCondition()
        private var pending: Request?
        private var closed = false
        private var worker: EngineThread?
        private var stats = Statistics()
        private var defaultSize: ThumbnailSize
        private let cacheBytes: Int
        private let interrupt = InterruptFlag()
        private let deliver: @Sendable (ThumbnailResult) -> Void

        init(source: MediaSource, size: ThumbnailSize, cacheBytes: Int,
             deliver: @escaping @Sendable (ThumbnailResult) -> Void) {
            self.source = source
            defaultSize = size
            self.cacheBytes = cacheBytes
            self.deliver = deliver
        }

        var size: ThumbnailSize {
            get { condition.lock(); defer { condition.unlock() }; return defaultSize }
            set { condition.lock(); defaultSize = newValue; condition.unlock() }
        }

        var statistics: Statistics {
            condition.lock(); defer { condition.unlock() }
            return stats
        }

        /// One request waiting for the decode thread. Threading: a value type.
        private struct Request {
            let time: Double
            let size: ThumbnailSize
            let transform: PictureTransform
        }

        func request(at seconds: Double, size: ThumbnailSize?, transform: PictureTransform) {
            guard seconds.isFinite else { return }
            condition.lock()
            defer { condition.unlock() }
            guard !closed else { return }
            if pending != nil { stats.dropped += 1 }
            stats.requests += 1
            pending = Request(time: seconds, size: size ?? defaultSize, transform: transform)
            if worker == nil {
                worker = EngineThread(name: "reel.thumbs") { [self] in
                    _ = reel_set_thread_nice(ThumbnailProvider.niceness)
                    run()
                }
            }
            condition.signal()
        }

        func close() {
            condition.lock()
            closed = true
            pending = nil
            let thread = worker
            worker = nil
            condition.signal()
            condition.unlock()
            interrupt.abort()
            guard let thread else { return }
            if thread.isCurrent { thread.detach() } else { thread.join() }
        }

        private var isClosed: Bool { condition.lock(); defer { condition.unlock() }; return closed }

        private func nextRequest() -> Request? {
            condition.lock()
            defer { condition.unlock() }
            while pending == nil && !closed { condition.wait() }
            if closed { return nil }
            defer { pending = nil }
            return pending
        }

        private func run() {
            var cache = ThumbnailCache(budget: cacheBytes)
            var reader: KeyFrameReader?
            var openFailure: ThumbnailError?
            if case .unavailable(let reason) = source.previewAvailability { openFailure = .unavailable(reason) }
            defer { reader?.close() }

            while let request = nextRequest() {
                if reader == nil && openFailure == nil {
                    do { reader = try KeyFrameReader(source: source, interrupt: interrupt) } catch { openFailure = error }
                }
                var hit = false
                let outcome: Result<Thumbnail, ThumbnailError>
                if let openFailure {
                    outcome = .failure(isClosed ? .closed : openFailure)
                } else if let reader {
                    let known = reader.pictureKey(at: request.time).map {
                        ThumbnailCache.Key(picture: $0, size: request.size, transform: request.transform)
                    }
                    if let known, let cached = cache.lookup(known) {
                        hit = true
                        outcome = .success(cached.answering(request.time, fromCache: true))
                    } else {
                        do {
                            let made = try reader.thumbnail(at: request.time, size: request.size,
                                                            transform: request.transform) { [self] in isClosed }
                            cache.insert(made.thumbnail, for: .init(picture: made.key, size: request.size,
                                                                    transform: request.transform))
                            outcome = .success(made.thumbnail)
                        } catch {
                            outcome = .failure(error)
                        }
                    }
                } else {
                    outcome = .failure(.closed)
                }
                condition.lock()
                if closed { condition.unlock(); return }
                switch outcome {
                case .success: if hit { stats.cacheHits += 1 } else { stats.decoded += 1 }
                case .failure: stats.failures += 1
                }
                stats.cachedPictures = cache.count
                stats.cachedBytes = cache.bytes
                condition.unlock()
                deliver(ThumbnailResult(requestedTime: request.time, transform: request.transform, outcome: outcome))
            }
        }
    }
}
