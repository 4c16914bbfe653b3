@testable import ReelEngine
import Testing

/// Black bars found in synthetic luma planes, as cropdetect finds them (checked against
/// `ffmpeg -vf cropdetect=round=2:skip=0` on the letterboxed fixture in the engine tests).
@Suite("Black bars")
struct BlackBarsTests {
    /// A plane of `width`×`height` black (16, limited range) with `content` filled at `level`.
    static func plane(_ width: Int, _ height: Int, content: PixelRect, level: Int = 128, depth: Int = 8) -> (Int, Int) -> Int {
        let black = 16 << (depth - 8)
        return { x, y in
            content.x <= x && x < content.x + content.width && content.y <= y && y < content.y + content.height
                ? level << (depth - 8) : black
        }
    }

    @Test("A letterboxed and a pillarboxed picture, 8 and 10 bits")
    func oneFrame() {
        let box = PixelRect(x: 0, y: 92, width: 320, height: 536)
        #expect(BlackBars.content(width: 320, height: 720, depth: 8, sample: Self.plane(320, 720, content: box)) == box)
        let pillar = PixelRect(x: 40, y: 0, width: 240, height: 180)
        #expect(BlackBars.content(width: 320, height: 180, depth: 10,
                                  sample: Self.plane(320, 180, content: pillar, depth: 10)) == pillar)
    }

    @Test("Dark content just above the limit counts; a black frame tells nothing")
    func limits() {
        let box = PixelRect(x: 0, y: 10, width: 64, height: 44)
        #expect(BlackBars.content(width: 64, height: 64, depth: 8, sample: Self.plane(64, 64, content: box, level: 25)) == box)
        #expect(BlackBars.content(width: 64, height: 64, depth: 8, sample: Self.plane(64, 64, content: box, level: 24)) == nil)
    }

    @Test("The file's crop: the union of the frames that told, even, offered from 1 % of a side and 3 frames")
    func combined() {
        let a = PixelRect(x: 0, y: 93, width: 1280, height: 533), b = PixelRect(x: 0, y: 95, width: 1280, height: 530)
        #expect(BlackBars.crop(from: [a, b, nil, a], width: 1280, height: 720) == PixelRect(x: 0, y: 94, width: 1280, height: 532))
        #expect(BlackBars.crop(from: [a, nil, nil, b], width: 1280, height: 720) == nil, "two frames are too few")
        let thin = PixelRect(x: 0, y: 2, width: 1280, height: 716)
        #expect(BlackBars.crop(from: [thin, thin, thin], width: 1280, height: 720) == nil, "bars under 1 % are not worth it")
    }
}
