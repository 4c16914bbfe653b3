import CFFmpeg
import Foundation

/// A picture exported as the person shaped it on screen: their crop, aspect, turns and mirror
/// (not zoom or pan, which only frame the view), at the crop's own size in square pixels.
/// Threading: any thread (stateless; each call has its own scaler).
extension FrameExport {
    static func png(of video: VideoFrame, clockwise degrees: Int, transform: PictureTransform,
                    overlay: ((_ width: Int, _ height: Int) -> SubtitleImage?)? = nil) throws(PlayerError) -> Data {
        let crop = transform.crop?.clamped(width: video.width, height: video.height)
            ?? PixelRect(x: 0, y: 0, width: video.width, height: video.height)
        let turns = (((degrees / 90 + transform.turns) % 4) + 4) % 4
        // Square pixels: the crop widened by the sample aspect ratio; an aspect override sets the
        // shown width over height, which before an odd turn is the height over the width.
        let sampleAspect = video.width > 0 ? Double(video.displayWidth) / Double(video.width) : 1
        var width = Double(crop.width) * sampleAspect
        let height = Double(crop.height)
        if let ratio = transform.aspect.ratio { width = turns % 2 == 1 ? height / ratio : height * ratio }
        let w = max(2, Int(width.rounded())), h = max(2, crop.height)
        let region = SourceRegion(x: Double(crop.x), y: Double(crop.y), width: Double(crop.width), height: Double(crop.height))
        let pixels = try shapedRGBA(video, region: region, width: w, height: h)
        var turned = PictureRotation.rotate(pixels, width: w, height: h, clockwise: turns * 90)
        if transform.flipped { turned.pixels = Self.mirrored(turned.pixels, width: turned.width, height: turned.height) }
        if let image = overlay?(turned.width, turned.height), image.width == turned.width, image.height == turned.height {
            image.composite(over: &turned.pixels)
        }
        return try png(rgba: turned.pixels, width: turned.width, height: turned.height)
    }

    /// `region` of the picture through `FrameScaler` at `width`×`height`, as packed RGBA rows.
    private static func shapedRGBA(_ video: VideoFrame, region: SourceRegion, width: Int, height: Int) throws(PlayerError) -> Data {
        let count = width * height * 4
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        defer { buffer.deallocate() }
        try FrameScaler().scale(video, region: region, width: width, height: height, into: buffer, bytesPerRow: width * 4)
        let p = buffer.assumingMemoryBound(to: UInt8.self)
        // BGRA in memory (cairo's ARGB32 on little-endian) to RGBA.
        for i in 0..<(width * height) { (p[4 * i], p[4 * i + 2]) = (p[4 * i + 2], p[4 * i]) }
        return Data(bytes: buffer, count: count)
    }

    /// RGBA rows mirrored left to right.
    static func mirrored(_ pixels: Data, width: Int, height: Int) -> Data {
        var out = Data(count: pixels.count)
        pixels.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                let s = source.bindMemory(to: UInt32.self), t = target.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    for x in 0..<width { t[y * width + x] = s[y * width + width - 1 - x] }
                }
            }
        }
        return out
    }
}
