import Foundation

/// What a person's `PictureTransform` makes of a decoded picture, apart from zoom and pan (which
/// only frame the view): the part shown, the quarter turns with the stream's own, the mirror,
/// and the shown size in square pixels. The one place the pictures made off the screen take
/// their shape from — Save Picture at the crop's own size, the hover previews at theirs — so
/// both look as the movie does.
/// Threading: a value type.
package struct ShapedPicture: Equatable {
    /// The part of the decoded picture shown, in its pixels: the crop kept inside the picture,
    /// or all of it.
    package let region: PixelRect
    /// Whether `region` is less than the whole picture.
    package let isCropped: Bool
    /// Quarter turns clockwise from the decoded picture to the screen, the stream's and the
    /// person's together, 0...3.
    package let turns: Int
    /// Mirrored left to right after turning.
    package let mirrored: Bool
    /// The region's shown size before turning, in square pixels: widened by the sample aspect
    /// ratio, or at the aspect override (which names the turned picture's width over height,
    /// so before an odd turn it is the height over the width).
    package let width: Double
    package let height: Double

    /// The shape of a `width`×`height` picture whose pixels are `sampleAspect` wide, turned
    /// `degrees` clockwise by its stream (multiples of 90) and shaped by `transform`.
    package init(width w: Int, height h: Int, sampleAspect: Double, clockwise degrees: Int, transform: PictureTransform) {
        let whole = PixelRect(x: 0, y: 0, width: w, height: h)
        region = transform.crop?.clamped(width: w, height: h) ?? whole
        isCropped = region != whole
        turns = (((degrees / 90 + transform.turns) % 4) + 4) % 4
        mirrored = transform.flipped
        height = Double(region.height)
        if let ratio = transform.aspect.ratio {
            width = turns % 2 == 1 ? height / ratio : height * ratio
        } else {
            width = Double(region.width) * sampleAspect
        }
    }

    package var isQuarterTurned: Bool { turns % 2 == 1 }
    /// The shown size after turning.
    package var displayWidth: Double { isQuarterTurned ? height : width }
    package var displayHeight: Double { isQuarterTurned ? width : height }

    /// The region as a part of the picture for the converters that take one.
    package var sourceRegion: SourceRegion {
        SourceRegion(x: Double(region.x), y: Double(region.y), width: Double(region.width), height: Double(region.height))
    }

    /// `pixels` (packed RGBA, the region converted at `width`×`height` before turning) turned
    /// and mirrored as shown.
    package func turning(_ pixels: Data, width: Int, height: Int) -> (pixels: Data, width: Int, height: Int) {
        var turned = PictureRotation.rotate(pixels, width: width, height: height, clockwise: turns * 90)
        if mirrored { turned.pixels = PictureRotation.mirror(turned.pixels, width: turned.width, height: turned.height) }
        return turned
    }
}
