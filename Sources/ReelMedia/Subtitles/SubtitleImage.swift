import Foundation

/// Subtitles drawn for one moment at one size: premultiplied RGBA covering the whole picture
/// (transparent where there is no text), ready to blend over it or upload as a texture.
/// Threading: a value type.
public struct SubtitleImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Differs between images drawn separately: an unchanged image need not be uploaded again.
    public package(set) var id = 0
    /// width × height × 4 bytes, premultiplied RGBA, top row first.
    public var pixels: [UInt8]
    /// The smallest rectangle holding every drawn pixel (x, y, width, height).
    public var bounds: (x: Int, y: Int, width: Int, height: Int) {
        (boundsRect.x, boundsRect.y, boundsRect.w, boundsRect.h)
    }
    package var boundsRect = (x: 0, y: 0, w: 0, h: 0)

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    public static func == (a: SubtitleImage, b: SubtitleImage) -> Bool {
        a.width == b.width && a.height == b.height && a.pixels == b.pixels
    }

    package mutating func include(x: Int, y: Int, w: Int, h: Int) {
        guard w > 0, h > 0 else { return }
        if boundsRect.w == 0 { boundsRect = (x, y, w, h); return }
        let x0 = min(boundsRect.x, x), y0 = min(boundsRect.y, y)
        let x1 = max(boundsRect.x + boundsRect.w, x + w), y1 = max(boundsRect.y + boundsRect.h, y + h)
        boundsRect = (x0, y0, x1 - x0, y1 - y0)
    }

    /// Blends a coverage mask of one colour (libass's images) at (x, y), clipped to the picture.
    package mutating func blend(mask: UnsafePointer<UInt8>, stride: Int, x: Int, y: Int, w: Int, h: Int,
                        red: Int, green: Int, blue: Int, opacity: Int) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1, opacity > 0 else { return }
        include(x: x0, y: y0, w: x1 - x0, h: y1 - y0)
        pixels.withUnsafeMutableBufferPointer { out in
            for row in y0..<y1 {
                let maskRow = mask + (row - y) * stride - x
                var o = (row * width + x0) * 4
                for col in x0..<x1 {
                    let a = Int(maskRow[col]) * opacity / 255
                    if a > 0 {
                        let keep = 255 - a
                        out[o] = UInt8((red * a + Int(out[o]) * keep) / 255)
                        out[o + 1] = UInt8((green * a + Int(out[o + 1]) * keep) / 255)
                        out[o + 2] = UInt8((blue * a + Int(out[o + 2]) * keep) / 255)
                        out[o + 3] = UInt8(a + Int(out[o + 3]) * keep / 255)
                    }
                    o += 4
                }
            }
        }
    }

    /// Blends this premultiplied image over opaque packed RGBA pixels of the same size.
    public func composite(over rgba: inout Data) {
        guard rgba.count >= width * height * 4 else { return }
        rgba.withUnsafeMutableBytes { raw in
            let out = raw.bindMemory(to: UInt8.self)
            var i = 0
            while i < width * height * 4 {
                let a = Int(pixels[i + 3])
                if a > 0 {
                    let keep = 255 - a
                    out[i] = UInt8(min(255, Int(pixels[i]) + Int(out[i]) * keep / 255))
                    out[i + 1] = UInt8(min(255, Int(pixels[i + 1]) + Int(out[i + 1]) * keep / 255))
                    out[i + 2] = UInt8(min(255, Int(pixels[i + 2]) + Int(out[i + 2]) * keep / 255))
                }
                i += 4
            }
        }
    }
}
