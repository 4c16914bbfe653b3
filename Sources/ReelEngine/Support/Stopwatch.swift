/// Measures elapsed wall time on the monotonic clock. Threading: a value type.
public struct Stopwatch: Sendable {
    public let start: HostTime
    public init() { start = .now }
    public var seconds: Double { HostTime.now.seconds(since: start) }
    public var milliseconds: Double { seconds * 1000 }
}
