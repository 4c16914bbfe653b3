import Foundation

/// How remote media is cached. Threading: a value type.
public struct StreamCacheOptions: Sendable, Equatable {
    /// Off: remote media streams straight from the network and nothing is kept.
    public var enabled = true
    /// Where entries live; nil is `$XDG_CACHE_HOME/reel/streams` (or `~/.cache/reel/streams`).
    public var directory: String?
    /// Bytes fetched ahead of the play position.
    public var readAhead: Int64 = 32 << 20
    /// Total size the cache may use; least recently used entries go first (never one in use).
    public var sizeLimit: Int64 = 2 << 30
    /// Seconds of failing reconnections before a download gives up with a network error.
    public var retryWindow: Double = 20
    /// Sent with every request of the item: what a web page's server wants (see `RequestHeaders`).
    public var requestHeaders = RequestHeaders()

    public init() {}

    public static var defaultDirectory: String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return base + "/reel/streams"
    }

    public var resolvedDirectory: String { directory ?? Self.defaultDirectory }
}
