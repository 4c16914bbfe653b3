import Foundation

/// A picture exported as the person shaped it on screen: their crop, aspect, turns and mirror
/// (not zoom or pan, which only frame the view), at the crop's own size in square pixels, with
/// the video equalizer's adjustments.
/// Threading: any thread (stateless; each call has its own scaler).
extension FrameExport {
    static func png(of video: VideoFrame, clockwise degrees: Int, transform: PictureTransform, equalizer: Equalizer = .neutral,
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
        let pixels = try finishedRGBA(video, region: region, equalizer: equalizer, width: w, height: h)
        var turned = PictureRotation.rotate(pixels, width: w, height: h, clockwise: turns * 90)
        if transform.flipped { turned.pixels = PictureRotation.mirror(turned.pixels, width: turned.width, height: turned.height) }
        if let image = overlay?(turned.width, turned.height), image.width == turned.width, image.height == turned.height {
            image.composite(over: &turned.pixels)
        }
        return try png(rgba: turned.pixels, width: turned.width, height: turned.height)
    }
}
