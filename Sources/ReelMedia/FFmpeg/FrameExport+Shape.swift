import Foundation

/// A picture exported as the person shaped it on screen: their crop, aspect, turns and mirror
/// (not zoom or pan, which only frame the view), at the crop's own size in square pixels, as
/// `ShapedPicture` shapes it, with the video equalizer's adjustments.
/// Threading: any thread (stateless; each call has its own scaler).
extension FrameExport {
    package static func png(of video: VideoFrame, clockwise degrees: Int, transform: PictureTransform, equalizer: Equalizer = .neutral,
                    overlay: ((_ width: Int, _ height: Int) -> SubtitleImage?)? = nil) throws(PlayerError) -> Data {
        let sampleAspect = video.width > 0 ? Double(video.displayWidth) / Double(video.width) : 1
        let shaped = ShapedPicture(width: video.width, height: video.height, sampleAspect: sampleAspect,
                                   clockwise: degrees, transform: transform)
        let w = max(2, Int(shaped.width.rounded())), h = max(2, shaped.region.height)
        let pixels = try finishedRGBA(video, region: shaped.sourceRegion, equalizer: equalizer, width: w, height: h)
        var turned = shaped.turning(pixels, width: w, height: h)
        if let image = overlay?(turned.width, turned.height), image.width == turned.width, image.height == turned.height {
            image.composite(over: &turned.pixels)
        }
        return try png(rgba: turned.pixels, width: turned.width, height: turned.height)
    }
}
