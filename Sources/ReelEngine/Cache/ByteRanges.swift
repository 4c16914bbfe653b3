/// Which bytes of a resource are present: sorted, disjoint, non-adjacent half-open ranges.
/// Threading: a value type.
struct ByteRanges: Sendable, Equatable, Codable {
    private(set) var ranges: [Range<Int64>] = []

    init() {}

    init(_ ranges: [Range<Int64>]) {
        for r in ranges { insert(r) }
    }

    var isEmpty: Bool { ranges.isEmpty }

    /// Total bytes covered.
    var count: Int64 { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }

    mutating func insert(_ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        var lower = range.lowerBound, upper = range.upperBound
        var kept: [Range<Int64>] = []
        kept.reserveCapacity(ranges.count + 1)
        var placed = false
        for r in ranges {
            if r.upperBound < lower {
                kept.append(r)
            } else if r.lowerBound > upper {
                if !placed { kept.append(lower..<upper); placed = true }
                kept.append(r)
            } else {
                // Overlapping or touching: merge into the new range.
                lower = min(lower, r.lowerBound)
                upper = max(upper, r.upperBound)
            }
        }
        if !placed { kept.append(lower..<upper) }
        ranges = kept
    }

    /// How many bytes from `offset` on are present without a gap (0 when `offset` is missing).
    func contiguous(from offset: Int64) -> Int64 {
        for r in ranges where r.contains(offset) { return r.upperBound - offset }
        return 0
    }

    /// The first missing byte at or after `offset`.
    func firstMissing(from offset: Int64) -> Int64 {
        for r in ranges where r.contains(offset) { return r.upperBound }
        return offset
    }

    /// The start of the next present range after `offset`, if any: where a fetch from a gap stops.
    func nextPresent(after offset: Int64) -> Int64? {
        ranges.first { $0.lowerBound > offset }?.lowerBound
    }

    /// Whether every byte of `0..<length` is present.
    func covers(length: Int64) -> Bool {
        length == 0 || (ranges.count == 1 && ranges[0].lowerBound == 0 && ranges[0].upperBound >= length)
    }
}
