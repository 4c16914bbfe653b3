import Foundation

/// What the cache knows about one resource, persisted beside its sparse data file: the URL it
/// belongs to, the validators the server gave (a change of any of them means the bytes are
/// stale), and the byte ranges that were on disk (synced) when it was written.
/// Threading: a value type.
struct CacheRecord: Codable, Sendable, Equatable {
    var url: String
    var etag: String?
    var lastModified: String?
    var length: Int64?
    /// The media type the server gave, for recognising what the bytes are (`DashRecognition`).
    var contentType: String?
    var ranges = ByteRanges()
    /// Seconds since 1970 of the last open: least recently used goes first.
    var lastUsed: Double = Date().timeIntervalSince1970

    var isComplete: Bool { length.map { ranges.covers(length: $0) } ?? false }

    /// Whether a response describes a different resource than the one cached.
    func differs(etag newTag: String?, lastModified newDate: String?, length newLength: Int64?) -> Bool {
        if let etag, let newTag, etag != newTag { return true }
        if let lastModified, let newDate, lastModified != newDate { return true }
        if let length, let newLength, length != newLength { return true }
        return false
    }

    var hasValidators: Bool { etag != nil || lastModified != nil || length != nil }
}
