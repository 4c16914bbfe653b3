@testable import ReelEngine
@testable import ReelGtk
import Testing

/// The geometry of zoom, fill, pan, crop, aspect, turns and mirror, worked by hand: a 2.39:1
/// film on a 16:10 screen, a 4:3 programme, a phone's portrait clip.
@Suite("Picture placement")
struct PicturePlacementTests {
    typealias P = PicturePlacement

    static func place(_ w: Int, _ h: Int, sar: Double = 1, stream: Int = 0, _ transform: PictureTransform = .identity,
                      _ view: PictureShape = .plain, in vw: Int, _ vh: Int) -> P {
        var shape = view
        shape.transform = transform
        return P(frameWidth: w, frameHeight: h, sampleAspect: sar, streamTurns: stream, shape: shape,
                 viewWidth: vw, viewHeight: vh)
    }

    @Test("With nothing applied it is VideoRect.fit, for any size, aspect and turn",
          arguments: [(1280, 720, 1.0, 0), (720, 576, 64.0 / 45, 0), (1920, 800, 1.0, 1), (640, 480, 1.0, 3), (1, 1, 1.0, 2)])
    func fitted(w: Int, h: Int, sar: Double, turns: Int) {
        for (vw, vh) in [(1280, 800), (1000, 1000), (333, 777), (1920, 1080)] {
            let p = Self.place(w, h, sar: sar, stream: turns, in: vw, vh)
            var dw = Double(w) * sar, dh = Double(h)
            if turns % 2 == 1 { swap(&dw, &dh) }
            let fit = VideoRect.fit(displayWidth: dw, displayHeight: dh, viewWidth: vw, viewHeight: vh)
            #expect(p.picture == fit && p.visible == fit)
            #expect(p.source == SourceRegion(x: 0, y: 0, width: Double(w), height: Double(h)))
        }
    }

    @Test("Zoom to fill crops a 2.39:1 film evenly on a 16:10 screen: all of its height, the sides cut")
    func fill() {
        let view = PictureShape(fill: true)
        let p = Self.place(1920, 804, .identity, view, in: 1280, 800)
        #expect(p.visible == VideoRect(x: 0, y: 0, width: 1280, height: 800))
        #expect(p.picture.height == 800 && p.picture.width == 1910)
        #expect(p.picture.x == -315)
        // 1280 of 1910 shown pixels are visible: the middle two thirds of the source's width.
        #expect(abs(p.source.width - 1920 * 1280 / 1910.0) < 0.01)
        #expect(abs(p.source.x - 1920 * 315 / 1910.0) < 0.01)
        #expect(p.source.y == 0 && p.source.height == 804)
    }

    @Test("Zoom doubles at 1; pan moves an overflowing axis only as far as the picture's edge, and not a fitting one")
    func zoomAndPan() {
        var view = PictureShape(zoom: 1, panX: 0.1, panY: 0.1)
        let p = Self.place(1280, 720, .identity, view, in: 1280, 800)
        #expect(p.picture.width == 2560 && p.picture.height == 1440)
        #expect(p.picture.x == -640 + 256 && p.pan.x == 0.1)
        (view.panX, view.panY) = (0.9, -0.9)
        let far = Self.place(1280, 720, .identity, view, in: 1280, 800)
        #expect(far.picture.x == 0, "the left edge stops at the view's left edge")
        #expect(far.picture.y == 800 - 1440, "the bottom edge stops at the view's bottom edge")
        #expect(abs(far.pan.x - 0.25) < 1e-9)
        view.zoom = -1
        let small = Self.place(1280, 720, .identity, view, in: 1280, 800)
        #expect(small.picture == VideoRect(x: 320, y: 220, width: 640, height: 360), "a picture that fits stays centred")
        #expect(small.pan == .zero)
    }

    @Test("A crop shows only its rectangle, fitted as a picture of its own size")
    func crop() {
        let letterbox = PictureTransform(crop: PixelRect(x: 0, y: 92, width: 1280, height: 536))
        let p = Self.place(1280, 720, letterbox, in: 1280, 536)
        #expect(p.visible == VideoRect(x: 0, y: 0, width: 1280, height: 536))
        #expect(p.source == SourceRegion(x: 0, y: 92, width: 1280, height: 536))
        let outside = PictureTransform(crop: PixelRect(x: 1200, y: 600, width: 500, height: 500))
        #expect(Self.place(1280, 720, outside, in: 100, 100).source == SourceRegion(x: 1200, y: 600, width: 80, height: 120),
                "a crop past the picture's edge is kept inside it")
    }

    @Test("An aspect override sets the shown width over height, after turning")
    func aspect() {
        let p = Self.place(1280, 720, PictureTransform(aspect: .standard), in: 1600, 900)
        #expect(p.visible == VideoRect(x: 200, y: 0, width: 1200, height: 900))
        let turned = Self.place(1280, 720, PictureTransform(aspect: .wide, turns: 1), in: 1600, 900)
        #expect(turned.visible == VideoRect(x: 0, y: 0, width: 1600, height: 900))
        #expect(turned.turns == 1)
        #expect(AspectOverride.auto.next == .wide && AspectOverride.portrait.next == .auto)
    }

    @Test("Turns and the mirror: the source corner under each viewport corner")
    func textureCorners() {
        func corners(_ t: PictureTransform, stream: Int = 0) -> [[Float]] {
            let m = Self.place(100, 50, stream: stream, t, in: 400, 400).textureTransform(frameWidth: 100, frameHeight: 50)
            return [(0, 0), (1, 0), (0, 1)].map { x, y in [m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5]] }
        }
        // Unturned: top-left is the texture's top-left.
        #expect(corners(.identity) == [[0, 0], [1, 0], [0, 1]])
        // A quarter clockwise: the screen's top-left shows the source's bottom-left.
        #expect(corners(PictureTransform(turns: 1)) == [[0, 1], [0, 0], [1, 1]])
        #expect(corners(.identity, stream: 1) == corners(PictureTransform(turns: 1)), "stream and person's turns add")
        #expect(corners(PictureTransform(turns: 2)) == [[1, 1], [0, 1], [1, 0]])
        // Mirrored: the screen's top-left shows the source's top-right.
        #expect(corners(PictureTransform(flipped: true)) == [[1, 0], [0, 0], [1, 1]])
        // Turned after mirroring, the mirror still acts across the screen.
        #expect(corners(PictureTransform(turns: 1, flipped: true)) == [[0, 0], [0, 1], [1, 0]])
    }

    @Test("A mirrored picture turns the way the person asks")
    func turningMirrored() {
        let mirrored = PictureTransform(flipped: true)
        let turned = mirrored.turned(by: 1)
        // Seen on screen: turning the mirrored picture clockwise moves its top-left (shown) to the top-right.
        let m = Self.place(100, 100, turned, in: 100, 100).textureTransform(frameWidth: 100, frameHeight: 100)
        let before = Self.place(100, 100, mirrored, in: 100, 100).textureTransform(frameWidth: 100, frameHeight: 100)
        // The texel at the shown top-left before the turn is shown at the top-right after it.
        let topLeftBefore = [before[2], before[5]]
        let topRightAfter = [m[0] + m[2], m[3] + m[5]]
        #expect(topLeftBefore == topRightAfter)
        #expect(PictureTransform(turns: 3).turned(by: 1).turns == 0)
    }

    @Test("Zoomed in with a turn, the visible part maps to the middle of the source, axes swapped")
    func zoomedTurned() {
        let p = Self.place(200, 100, PictureTransform(turns: 1), PictureShape(zoom: 1), in: 100, 200)
        #expect(p.picture == VideoRect(x: -50, y: -100, width: 200, height: 400))
        #expect(p.source == SourceRegion(x: 50, y: 25, width: 100, height: 50))
    }

    @Test("Minification: decoded pixels a screen pixel on the axis that shrinks most; mipmaps only beyond 2")
    func minification() {
        // A 4K film in a 1080p view: exactly half, still the plain bilinear path.
        let uhd = Self.place(3840, 2160, in: 1920, 1080)
        #expect(uhd.minification == 2 && !MovieRenderer.needsMipmaps(uhd))
        // In a 1280-wide view: three to one.
        #expect(Self.place(3840, 2160, in: 1280, 720).minification == 3)
        #expect(MovieRenderer.needsMipmaps(Self.place(3840, 2160, in: 1280, 720)))
        // A portrait phone clip turned upright: its 1920 rows across 540 screen rows.
        let phone = Self.place(1920, 1080, stream: 1, in: 960, 540)
        #expect(abs(phone.minification - 1920.0 / 540) < 1e-9)
        // Zoomed in, nothing shrinks; a crop counts only what it keeps.
        #expect(Self.place(1280, 720, PictureTransform(), PictureShape(zoom: 1), in: 640, 360).minification == 1)
        #expect(Self.place(1280, 720, PictureTransform(crop: PixelRect(x: 0, y: 0, width: 640, height: 360)), in: 320, 180)
            .minification == 2)
    }
}

/// The steps the keys take on the shape.
@Suite("Picture shape steps")
struct PictureShapeTests {
    @Test("Zoom steps by a tenth of a doubling within ¼× and 8×; pan by a tenth within half the picture; reset keeps the transform")
    func steps() {
        var s = PictureShape()
        for _ in 0..<10 { s = s.zoomed(by: 1) }
        #expect(s.zoom == 1)
        for _ in 0..<100 { s = s.zoomed(by: 1) }
        #expect(s.zoom == 3)
        for _ in 0..<100 { s = s.zoomed(by: -1) }
        #expect(s.zoom == -2)
        s = s.panned(x: 3, y: -1)
        #expect(s.panX == 0.3 && s.panY == -0.1)
        s = s.panned(x: 9, y: 0)
        #expect(s.panX == 0.5)
        s.transform = PictureTransform(turns: 1)
        s.fill = true
        #expect(s.isViewed)
        #expect(s.reset() == PictureShape(transform: PictureTransform(turns: 1)))
        #expect(s.reset(all: true) == .plain && !PictureShape.plain.isViewed)
    }

}
