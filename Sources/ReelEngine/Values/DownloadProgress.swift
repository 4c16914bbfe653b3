/// How much of remote media is on disk. Threading: a value type.
public struct DownloadProgress: Sendable, Equatable {
    /// Bytes present in the cache.
    public let bytes: Int64
    /// The resource's length, once the server has said it.
    public let expected: Int64?
    /// The byte ranges present, in order.
    public let ranges: [Range<Int64>]

    public init(bytes: Int64, expected: Int64?, ranges: [Range<Int64>]) {
        self.bytes = bytes
        self.expected = expected
        self.ranges = ranges
    }

    /// The present ranges as fractions of the whole (0...1), for drawing on a scrubber: bytes
    /// stand in for time, which is close for the constant-rate media streamed in practice.
    public var fractions: [ClosedRange<Double>] {
        guard let expected, expected > 0 else { return [] }
        return ranges.map { Double($0.lowerBound) / Double(expected)...min(1, Double($0.upperBound) / Double(expected)) }
    }
}
