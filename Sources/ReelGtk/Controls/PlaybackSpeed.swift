import ReelEngine

/// The speeds the `[` and `]` keys step through (the menu offers the same).
/// Threading: pure values.
public enum PlaybackSpeed {
    /// The menu's choices and the keys' steps: fine around normal, where people listen at
    /// 1.25× or 1.5×, coarse towards the ends.
    public static let steps: [Double] = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4]

    /// The next step up (`faster`) or down from `speed`; nil at the end of the range.
    public static func step(from speed: Double, faster: Bool) -> Double? {
        faster ? steps.first { $0 > speed + 0.001 } : steps.last { $0 < speed - 0.001 }
    }
}
