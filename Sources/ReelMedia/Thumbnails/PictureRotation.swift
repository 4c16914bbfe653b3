import Foundation

/// Turns packed RGBA rows a quarter, half or three quarters clockwise, the way a stream's
/// display matrix asks (FFmpeg's own tools do the same with their `transpose` filters), and
/// mirrors them, as a person may ask.
/// libswscale scales but does not rotate; thumbnails are small, so a plain loop is enough.
/// Threading: pure functions.
package enum PictureRotation {
    /// `pixels` is `width`×`height` RGBA; returns the rotated pixels and their size.
    package static func rotate(_ pixels: Data, width: Int, height: Int,
                       clockwise degrees: Int) -> (pixels: Data, width: Int, height: Int) {
        let turns = ((degrees % 360) + 360) % 360 / 90
        guard turns != 0, degrees % 90 == 0, pixels.count >= width * height * 4 else {
            return (pixels, width, height)
        }
        let outWidth = turns == 2 ? width : height
        let outHeight = turns == 2 ? height : width
        var out = Data(count: width * height * 4)
        pixels.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
            out.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) in
                let src = source.bindMemory(to: UInt32.self)
                let dst = target.bindMemory(to: UInt32.self)
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // Where the pixel at (x, y) of the turned picture comes from.
                        let (sx, sy): (Int, Int)
                        switch turns {
                        case 1: (sx, sy) = (y, height - 1 - x)
                        case 2: (sx, sy) = (width - 1 - x, height - 1 - y)
                        default: (sx, sy) = (width - 1 - y, x)
                        }
                        dst[y * outWidth + x] = src[sy * width + sx]
                    }
                }
            }
        }
        return (out, outWidth, outHeight)
    }

    /// `pixels` (`width`×`height` RGBA) mirrored left to right.
    package static func mirror(_ pixels: Data, width: Int, height: Int) -> Data {
        var out = Data(count: pixels.count)
        pixels.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
            out.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) in
                let src = source.bindMemory(to: UInt32.self), dst = target.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    for x in 0..<width { dst[y * width + x] = src[y * width + width - 1 - x] }
                }
            }
        }
        return out
    }
}
