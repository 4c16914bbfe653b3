import Foundation

/// A point on the machine's monotonic clock (CLOCK_MONOTONIC), in nanoseconds.
/// Threading: a value type; safe everywhere.
public struct HostTime: Sendable, Hashable, Comparable {
    public let nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    public static var now: HostTime {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return HostTime(nanoseconds: UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec))
    }

    /// Seconds from `earlier` to `self` (negative when `self` is earlier).
    public func seconds(since earlier: HostTime) -> Double {
        if nanoseconds >= earlier.nanoseconds {
            return Double(nanoseconds - earlier.nanoseconds) / 1e9
        }
        return -Double(earlier.nanoseconds - nanoseconds) / 1e9
    }

    public func adding(seconds: Double) -> HostTime {
        let delta = Int64((seconds * 1e9).rounded())
        return HostTime(nanoseconds: UInt64(max(0, Int64(nanoseconds) &+ delta)))
    }

    public static func < (a: HostTime, b: HostTime) -> Bool { a.nanoseconds < b.nanoseconds }
}
