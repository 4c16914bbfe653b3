import Foundation

/// Formats seconds for people (messages, logs). Threading: pure functions.
public enum TimeFormat {
    /// `M:SS`, or `H:MM:SS` from an hour on.
    public static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "--:--" }
        let total = Int(max(0, seconds).rounded(.down))
        let h = total / 3600, m = (total / 60) % 60, s = total % 60
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}
