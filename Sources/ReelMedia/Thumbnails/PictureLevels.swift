import Foundation

/// How bright and how varied a small picture is: what tells a black, blank or fading frame from
/// one worth showing, read from the thumbnail itself (a few thousand pixels, so reading it costs
/// nothing beside the decode). Luma is BT.709's weighting of the RGB as shown, 0 to 255.
/// Threading: a value type.
public struct PictureLevels: Sendable, Equatable {
    /// The mean luma.
    public let mean: Double
    /// The luma's standard deviation: near zero for one flat colour.
    public let deviation: Double
    /// The luma below which 98 % of the pixels lie: the picture's bright end, low for black and
    /// for a frame fading to or from black however much detail it keeps.
    public let brightEnd: Double
    /// The share of pixels in the most common of 32 luma bands: near one for a blank picture,
    /// even one with a little noise or a caption on it.
    public let dominantShare: Double

    public init(mean: Double, deviation: Double, brightEnd: Double, dominantShare: Double) {
        self.mean = mean
        self.deviation = deviation
        self.brightEnd = brightEnd
        self.dominantShare = dominantShare
    }

    /// The levels of `width`×`height` packed RGBA pixels (alpha ignored).
    public init(rgba pixels: Data, width: Int, height: Int) {
        let count = min(width * height, pixels.count / 4)
        guard count > 0 else {
            self.init(mean: 0, deviation: 0, brightEnd: 0, dominantShare: 1)
            return
        }
        var histogram = [Int](repeating: 0, count: 256)
        pixels.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            for i in 0..<count {
                let r = Int(bytes[4 * i]), g = Int(bytes[4 * i + 1]), b = Int(bytes[4 * i + 2])
                // BT.709 weights in 1/1024ths, rounded.
                histogram[(218 * r + 732 * g + 74 * b + 512) >> 10] += 1
            }
        }
        var sum = 0.0, squares = 0.0
        for (level, n) in histogram.enumerated() {
            sum += Double(level * n)
            squares += Double(level * level * n)
        }
        let mean = sum / Double(count)
        let deviation = max(0, squares / Double(count) - mean * mean).squareRoot()
        var seen = 0, brightEnd = 255
        for (level, n) in histogram.enumerated() {
            seen += n
            if Double(seen) >= 0.98 * Double(count) { brightEnd = level; break }
        }
        var bands = [Int](repeating: 0, count: 32)
        for (level, n) in histogram.enumerated() { bands[level / 8] += n }
        self.init(mean: mean, deviation: deviation, brightEnd: Double(brightEnd),
                  dominantShare: Double(bands.max() ?? 0) / Double(count))
    }
}
