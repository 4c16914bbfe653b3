/// Finds the black bars around a picture (a scope film letterboxed into 16:9, a 4:3 programme
/// pillarboxed), after the idea of FFmpeg's `cropdetect`: a line is black when its mean luma is
/// at most 24/255 of full scale; scan in from each edge, take the union over a few key frames,
/// round to even pixels so chroma stays aligned. Threading: pure functions on values.
public enum BlackBars {
    /// The threshold of a black line's mean luma, out of 255 (cropdetect's default `limit`).
    public static let limit = 24.0

    /// The picture inside the bars of one luma plane, or nil when the whole plane is black
    /// (a fade tells nothing). `sample(x, y)` reads one luma sample of `depth` bits.
    public static func content(width: Int, height: Int, depth: Int, sample: (Int, Int) -> Int) -> PixelRect? {
        guard width > 0, height > 0 else { return nil }
        let threshold = limit / 255 * Double((1 << depth) - 1)
        func rowIsBlack(_ y: Int) -> Bool {
            var sum = 0
            for x in 0..<width { sum += sample(x, y) }
            return Double(sum) <= threshold * Double(width)
        }
        guard let top = (0..<height).first(where: { !rowIsBlack($0) }) else { return nil }
        let bottom = (top..<height).last { !rowIsBlack($0) }!
        // Columns are read over the rows left inside, so the bars above and below do not dim them.
        func columnIsBlack(_ x: Int) -> Bool {
            var sum = 0
            for y in top...bottom { sum += sample(x, y) }
            return Double(sum) <= threshold * Double(bottom - top + 1)
        }
        guard let left = (0..<width).first(where: { !columnIsBlack($0) }) else { return nil }
        let right = (left..<width).last { !columnIsBlack($0) }!
        return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// One crop for the file from the key frames' findings: their union (a bright frame's
    /// content where a dark one's is smaller), offered only when at least `minimumFrames` frames
    /// told (black ones do not) and the bars take at least 1 % of a side; origin rounded up and
    /// size down to even pixels, inside the picture.
    public static func crop(from findings: [PixelRect?], width: Int, height: Int,
                            minimumFrames: Int = 3) -> PixelRect? {
        let told = findings.compactMap { $0 }
        guard told.count >= minimumFrames, width > 0, height > 0 else { return nil }
        var x0 = told.map(\.x).min()!, y0 = told.map(\.y).min()!
        var x1 = told.map { $0.x + $0.width }.max()!, y1 = told.map { $0.y + $0.height }.max()!
        x0 += x0 & 1; y0 += y0 & 1
        x1 -= (x1 - x0) & 1; y1 -= (y1 - y0) & 1
        guard x1 > x0, y1 > y0 else { return nil }
        let cutAcross = Double(width - (x1 - x0)) / Double(width)
        let cutDown = Double(height - (y1 - y0)) / Double(height)
        guard cutAcross >= 0.01 || cutDown >= 0.01 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
