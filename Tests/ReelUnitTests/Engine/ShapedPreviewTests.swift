import Foundation
@testable import ReelEngine
import Testing

/// Hover previews in the picture's shape, without media: the size a preview takes for a
/// person's turn, aspect override and crop (as the card lays itself out and as the provider
/// scales), and the cache telling shapes apart.
@Suite("Shaped previews")
struct ShapedPreviewTests {
    /// A video stream of `width`×`height` with `sar` and the display matrix's `rotation`.
    static func stream(_ width: Int, _ height: Int, sar: Rational? = nil, rotation: Int = 0) -> StreamInfo {
        var info = StreamInfo(index: 0, kind: .video, codec: "h264", codecDescription: "H.264",
                              isDefault: true, isAttachedPicture: false, rotation: rotation)
        info.width = width
        info.height = height
        info.sampleAspectRatio = sar
        return info
    }

    /// The letterboxed fixture's frame: 640×360, the 2.39:1 picture 268 lines high inside it.
    static let letterboxed = stream(640, 360)
    /// The anamorphic fixture's: 320×180 pixels twice as wide as high (shown 640×180).
    static let anamorphic = stream(320, 180, sar: Rational(2, 1))

    /// The card's box at the usual height (a fifth of a 800-high view): 160 high, 356 wide.
    static let card = ThumbnailSize.fitting(width: 356, height: 160)

    @Test("A quarter turn makes a landscape picture's preview portrait, at the same height")
    func turned() {
        let plain = Self.card.pixels(for: Self.letterboxed)
        #expect(plain == (284, 160), "\(plain)")
        let turned = Self.card.pixels(for: Self.letterboxed, transform: PictureTransform(turns: 1))
        #expect(turned == (90, 160), "turned: \(turned)")
        // Added to the stream's own rotation: a phone's portrait clip turned once is landscape.
        let phone = Self.stream(640, 360, rotation: 90)
        #expect(Self.card.pixels(for: phone) == (90, 160))
        #expect(Self.card.pixels(for: phone, transform: PictureTransform(turns: 1)) == (284, 160))
        // A mirror does not change the size.
        #expect(Self.card.pixels(for: Self.letterboxed, transform: PictureTransform(flipped: true)) == (284, 160))
    }

    @Test("An aspect override replaces the anamorphic stream's own: 4:3 whatever the sample aspect, turned or not")
    func aspectOverride() {
        let own = Self.card.pixels(for: Self.anamorphic)
        #expect(own == (356, 100), "the stream's own 32:9: \(own)")
        let standard = PictureTransform(aspect: .standard)
        #expect(Self.card.pixels(for: Self.anamorphic, transform: standard) == (213, 160))
        // The override names the shown picture's width over height, after the turn.
        var turned = standard
        turned.turns = 1
        #expect(Self.card.pixels(for: Self.anamorphic, transform: turned) == (213, 160))
        #expect(Self.card.pixels(for: Self.anamorphic, transform: PictureTransform(aspect: .portrait)) == (90, 160))
    }

    @Test("A crop is the preview's picture: its size follows the part kept, within the picture")
    func crop() {
        let bars = PictureTransform(crop: PixelRect(x: 0, y: 46, width: 640, height: 268))
        // 2.39:1 is wider than the card's box: as wide as the box, less high.
        #expect(Self.card.pixels(for: Self.letterboxed, transform: bars) == (356, 149))
        #expect(ThumbnailSize.height(160).pixels(for: Self.letterboxed, transform: bars) == (382, 160))
        // A crop reaching outside the picture keeps only what lies inside it.
        let outside = PictureTransform(crop: PixelRect(x: 320, y: -100, width: 1000, height: 460))
        #expect(ThumbnailSize.height(160).pixels(for: Self.letterboxed, transform: outside) == (142, 160))
        // Of the anamorphic picture, the crop's pixels are as wide as the stream's.
        let square = PictureTransform(crop: PixelRect(x: 0, y: 0, width: 90, height: 180))
        #expect(ThumbnailSize.height(160).pixels(for: Self.anamorphic, transform: square) == (160, 160))
    }

    @Test("The provider's shape is Save Picture's: region, turns, mirror and shown size from one place")
    func sharedShape() {
        let t = PictureTransform(crop: PixelRect(x: 10, y: 46, width: 600, height: 268), aspect: .auto, turns: 3, flipped: true)
        let shaped = ShapedPicture(width: 640, height: 360, sampleAspect: 1, clockwise: 90, transform: t)
        #expect(shaped.region == PixelRect(x: 10, y: 46, width: 600, height: 268) && shaped.isCropped)
        #expect(shaped.turns == 0 && shaped.mirrored, "90° of the stream and three quarter turns: upright")
        #expect(shaped.displayWidth == 600 && shaped.displayHeight == 268)
        let whole = ShapedPicture(width: 640, height: 360, sampleAspect: 1, clockwise: 270, transform: .identity)
        #expect(!whole.isCropped && whole.turns == 3 && whole.displayWidth == 360 && whole.displayHeight == 640)
        // Turning and mirroring the pixels: a 2×1 picture [A B] turned once is [A; B] (A on
        // top), mirrored it stays so; turned three times it is [B; A].
        let pixels = Data([1, 1, 1, 255, 2, 2, 2, 255])
        var once = ShapedPicture(width: 2, height: 1, sampleAspect: 1, clockwise: 0, transform: PictureTransform(turns: 1, flipped: true))
        var shown = once.turning(pixels, width: 2, height: 1)
        #expect(shown.width == 1 && shown.height == 2 && Array(shown.pixels) == [1, 1, 1, 255, 2, 2, 2, 255])
        once = ShapedPicture(width: 2, height: 1, sampleAspect: 1, clockwise: 0, transform: PictureTransform(flipped: true))
        shown = once.turning(pixels, width: 2, height: 1)
        #expect(Array(shown.pixels) == [2, 2, 2, 255, 1, 1, 1, 255], "mirrored")
    }

    @Test("The cache keeps a picture per shape: another transform of the same key frame is another entry")
    func cacheKey() {
        let shapes = [PictureTransform.identity, PictureTransform(turns: 1), PictureTransform(flipped: true),
                      PictureTransform(aspect: .standard), PictureTransform(crop: PixelRect(x: 0, y: 46, width: 640, height: 268))]
        let keys = shapes.map { ThumbnailCache.Key(picture: 25, size: .standard, transform: $0) }
        #expect(Set(keys).count == shapes.count, "keys \(keys)")
        var cache = ThumbnailCache(budget: 1 << 20)
        let picture = Thumbnail(requestedTime: 1, frameTime: 1, width: 4, height: 4, pixels: Data(count: 64), fromCache: false)
        cache.insert(picture, for: keys[0])
        #expect(cache.lookup(keys[0]) != nil)
        for key in keys.dropFirst() {
            #expect(cache.lookup(key) == nil, "the plain picture answers for \(key.transform)")
        }
        #expect(cache.lookup(ThumbnailCache.Key(picture: 25, size: .standard, transform: PictureTransform(turns: 4))) != nil,
                "four quarter turns are none")
    }
}
