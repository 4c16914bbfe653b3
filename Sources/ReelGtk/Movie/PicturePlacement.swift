import Foundation
import ReelEngine

/// Where a picture goes in a view and which part of it shows, once the person's transform
/// (crop, aspect, turns, mirror), zoom, pan and zoom-to-fill are applied: the one geometry both
/// drawing paths, the subtitles and the pointer's hit tests read. With nothing applied it is
/// exactly `VideoRect.fit`. After mpv's `video/out/aspect.c`: fit, then fill (panscan 1) or zoom
/// by 2^zoom, then pan by a fraction of the picture; what overflows the view is cut off, and the
/// source rectangle shrinks with it, so each path still draws one pass at the shown size.
/// Threading: a value type.
struct PicturePlacement: Equatable {
    /// The whole picture as placed; larger than the view and partly outside it when zoomed.
    let picture: VideoRect
    /// The part of the view the picture covers: the viewport, the cairo rectangle and the
    /// rectangle subtitles stay inside.
    let visible: VideoRect
    /// The part of the decoded picture `visible` shows, in its pixels (in its own orientation).
    let source: SourceRegion
    /// The person's crop kept inside the decoded picture (all of it when there is none).
    let crop: PixelRect
    /// Quarter turns clockwise from the decoded picture to the screen (stream's and person's).
    let turns: Int
    let flipped: Bool
    /// The pan actually applied (kept so the picture still covers an axis that overflows).
    let pan: Point

    /// A point in fractions of a picture. Threading: a value type.
    struct Point: Equatable { var x: Double, y: Double; static let zero = Point(x: 0, y: 0) }

    init(frameWidth: Int, frameHeight: Int, sampleAspect: Double, streamTurns: Int,
         shape: PictureShape, viewWidth: Int, viewHeight: Int) {
        let transform = shape.transform
        let turns = (((streamTurns + transform.turns) % 4) + 4) % 4, flipped = transform.flipped
        let full = PixelRect(x: 0, y: 0, width: max(frameWidth, 1), height: max(frameHeight, 1))
        let crop = transform.crop?.clamped(width: full.width, height: full.height) ?? full

        // The shown size in square pixels: the crop at the stream's sample aspect, turned, then
        // the override's aspect at the same height.
        var shownWidth = Double(crop.width) * (sampleAspect > 0 ? sampleAspect : 1)
        var shownHeight = Double(crop.height)
        if turns % 2 == 1 { swap(&shownWidth, &shownHeight) }
        if let ratio = transform.aspect.ratio { shownWidth = shownHeight * ratio }

        guard viewWidth > 0, viewHeight > 0 else {
            let empty = VideoRect(x: 0, y: 0, width: max(viewWidth, 0), height: max(viewHeight, 0))
            self.init(picture: empty, visible: empty, crop: crop, turns: turns, flipped: flipped, pan: .zero)
            return
        }
        let across = Double(viewWidth) / shownWidth, down = Double(viewHeight) / shownHeight
        var scale = shape.fill ? max(across, down) : min(across, down)
        scale *= pow2(shape.zoom)
        let width = max(1, Int((shownWidth * scale).rounded()))
        let height = max(1, Int((shownHeight * scale).rounded()))

        // Centred; an axis that overflows moves by the pan, but never so far that the view shows
        // past the picture's edge; an axis that fits stays centred.
        func place(_ size: Int, in room: Int, pan: Double) -> (origin: Int, pan: Double) {
            let centred = (room - size) / 2
            guard size > room else { return (centred, 0) }
            let origin = min(0, max(room - size, centred + Int((pan * Double(size)).rounded())))
            return (origin, Double(origin - centred) / Double(size))
        }
        let px = place(width, in: viewWidth, pan: shape.panX)
        let py = place(height, in: viewHeight, pan: shape.panY)
        let picture = VideoRect(x: px.origin, y: py.origin, width: width, height: height)
        self.init(picture: picture, visible: picture.intersection(width: viewWidth, height: viewHeight),
                  crop: crop, turns: turns, flipped: flipped, pan: Point(x: px.pan, y: py.pan))
    }

    /// Where `frame` goes in a view of `viewWidth`×`viewHeight`, turned `streamDegrees` (its
    /// stream's display rotation) and shaped by `shape`. The sample aspect is taken from the
    /// frame's display width, so that with nothing applied it is `VideoRect.fit` to the pixel.
    init(_ frame: VideoFrame, streamDegrees: Int, shape: PictureShape, viewWidth: Int, viewHeight: Int) {
        self.init(frameWidth: frame.width, frameHeight: frame.height,
                  sampleAspect: frame.width > 0 ? Double(frame.displayWidth) / Double(frame.width) : 1,
                  streamTurns: VideoRect.quarterTurns(streamDegrees), shape: shape,
                  viewWidth: viewWidth, viewHeight: viewHeight)
    }

    private init(picture: VideoRect, visible: VideoRect, crop: PixelRect, turns: Int, flipped: Bool, pan: Point) {
        self.picture = picture
        self.visible = visible
        self.turns = turns
        self.flipped = flipped
        self.pan = pan
        self.crop = crop
        // The visible part as fractions of the shown picture, taken back through the mirror and
        // the turns into the crop's orientation.
        let shown = picture.width > 0 && picture.height > 0
            ? (x: Double(visible.x - picture.x) / Double(picture.width),
                   y: Double(visible.y - picture.y) / Double(picture.height),
                   width: Double(visible.width) / Double(picture.width),
                   height: Double(visible.height) / Double(picture.height))
            : (x: 0.0, y: 0.0, width: 1.0, height: 1.0)
        let corners = [Point(x: shown.x, y: shown.y), Point(x: shown.x + shown.width, y: shown.y + shown.height)]
            .map { Self.sourceFraction(ofShown: $0, turns: turns, flipped: flipped) }
        let x0 = min(corners[0].x, corners[1].x), x1 = max(corners[0].x, corners[1].x)
        let y0 = min(corners[0].y, corners[1].y), y1 = max(corners[0].y, corners[1].y)
        source = SourceRegion(x: Double(crop.x) + x0 * Double(crop.width), y: Double(crop.y) + y0 * Double(crop.height),
                      width: (x1 - x0) * Double(crop.width), height: (y1 - y0) * Double(crop.height))
    }

    /// Decoded pixels per screen pixel along the axis where the picture shrinks most (1: drawn
    /// at its own size; 4: a quarter of it across or down).
    var minification: Double {
        let (across, down) = turns % 2 == 1 ? (picture.height, picture.width) : (picture.width, picture.height)
        guard across > 0, down > 0 else { return 1 }
        return max(Double(crop.width) / Double(across), Double(crop.height) / Double(down))
    }

    /// A point of the shown picture (fractions, y down) as a point of the unturned, unmirrored
    /// picture: the mirror is undone first (it acts on the screen), then the turns.
    static func sourceFraction(ofShown p: Point, turns: Int, flipped: Bool) -> Point {
        let u = flipped ? 1 - p.x : p.x, v = p.y
        switch turns {
        case 1: return Point(x: v, y: 1 - u)
        case 2: return Point(x: 1 - u, y: 1 - v)
        case 3: return Point(x: 1 - v, y: u)
        default: return Point(x: u, y: v)
        }
    }

    /// The affine map from the viewport's fractions (x right, y down, 0...1 over `visible`) to
    /// texture coordinates of the whole decoded picture (0...1 over `frameWidth`×`frameHeight`),
    /// as (a, b, c, d, e, f) with s = a·x + b·y + c, t = d·x + e·y + f: what the GL vertex
    /// shader needs in place of a turn count, with the crop, zoom, pan, turns and mirror in it.
    func textureTransform(frameWidth: Int, frameHeight: Int) -> [Float] {
        let w = Double(max(frameWidth, 1)), h = Double(max(frameHeight, 1))
        func texture(_ x: Double, _ y: Double) -> Point {
            // The viewport's fraction as a fraction of the shown picture, then into the source.
            let shown = Point(x: (Double(visible.x - picture.x) + x * Double(visible.width)) / Double(max(picture.width, 1)),
                              y: (Double(visible.y - picture.y) + y * Double(visible.height)) / Double(max(picture.height, 1)))
            let f = Self.sourceFraction(ofShown: shown, turns: turns, flipped: flipped)
            return Point(x: (Double(crop.x) + f.x * Double(crop.width)) / w,
                         y: (Double(crop.y) + f.y * Double(crop.height)) / h)
        }
        let o = texture(0, 0), ex = texture(1, 0), ey = texture(0, 1)
        return [Float(ex.x - o.x), Float(ey.x - o.x), Float(o.x), Float(ex.y - o.y), Float(ey.y - o.y), Float(o.y)]
    }
}

private func pow2(_ x: Double) -> Double { x == 0 ? 1 : exp2(x) }

private extension VideoRect {
    func intersection(width w: Int, height h: Int) -> VideoRect {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(w, x + width), y1 = min(h, y + height)
        return VideoRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
