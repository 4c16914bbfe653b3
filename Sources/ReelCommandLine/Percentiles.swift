/// Order statistics of benchmark samples. Reel and its peers are always summarised by the same
/// function, so the method cannot favour either side.
/// Threading: pure functions.
public enum Percentiles {
    /// The p-th percentile (0...100) by linear interpolation between the two nearest ranks
    /// (NumPy's default, Hyndman & Fan type 7): with 30 samples p95 lies between the 28th and
    /// 29th smallest, so one outlier moves it only partly.
    public static func percentile(_ samples: [Double], _ p: Double) -> Double {
        precondition(!samples.isEmpty, "percentile of no samples")
        let sorted = samples.sorted()
        let rank = max(0, min(1, p / 100)) * Double(sorted.count - 1)
        let below = Int(rank.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        let fraction = rank - Double(below)
        return sorted[below] + (sorted[above] - sorted[below]) * fraction
    }

    public static func median(_ samples: [Double]) -> Double { percentile(samples, 50) }
}
