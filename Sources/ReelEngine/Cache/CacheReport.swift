/// What a cache download tells its owner. Threading: a value type.
enum CacheReport: Sendable {
    case progress(bytes: Int64, expected: Int64?, ranges: ByteRanges)
    case finished(path: String)
    case failed(PlayerError)
    case reconnecting(attempt: Int, reason: String)
}
