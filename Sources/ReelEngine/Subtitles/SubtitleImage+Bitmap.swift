/// Bitmap subtitles (DVD, PGS, DVB) drawn into an image: here beside `SubtitleBitmap`, the
/// subtitle decoding's own type, rather than in the media layer that holds `SubtitleImage`.
extension SubtitleImage {
    /// Draws a straight-alpha RGBA picture scaled into the rectangle (bitmap subtitles).
    mutating func draw(_ bitmap: SubtitleBitmap, into rect: (x: Int, y: Int, w: Int, h: Int)) {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(width, rect.x + rect.w), y1 = min(height, rect.y + rect.h)
        guard x0 < x1, y0 < y1, bitmap.width > 0, bitmap.height > 0 else { return }
        include(x: x0, y: y0, w: x1 - x0, h: y1 - y0)
        for row in y0..<y1 {
            let sy = min(bitmap.height - 1, (row - rect.y) * bitmap.height / rect.h)
            for col in x0..<x1 {
                let sx = min(bitmap.width - 1, (col - rect.x) * bitmap.width / rect.w)
                let s = (sy * bitmap.width + sx) * 4
                let a = Int(bitmap.rgba[s + 3])
                guard a > 0 else { continue }
                let o = (row * width + col) * 4
                let keep = 255 - a
                pixels[o] = UInt8((Int(bitmap.rgba[s]) * a + Int(pixels[o]) * keep) / 255)
                pixels[o + 1] = UInt8((Int(bitmap.rgba[s + 1]) * a + Int(pixels[o + 1]) * keep) / 255)
                pixels[o + 2] = UInt8((Int(bitmap.rgba[s + 2]) * a + Int(pixels[o + 2]) * keep) / 255)
                pixels[o + 3] = UInt8(a + Int(pixels[o + 3]) * keep / 255)
            }
        }
    }
}
