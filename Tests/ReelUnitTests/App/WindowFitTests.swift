@testable import ReelApp
import Testing

/// The window's size for a picture and its place on the screen, without a window.
/// Threading: any; no window.
@Suite("The window's size and place")
struct WindowFitTests {
    static let screen = WindowFit.Size(width: 1280, height: 800)
    static func size(_ width: Double, _ height: Double) -> WindowFit.Size { .init(width: width, height: height) }

    @Test("A picture opens at its own size, at most 70 % of the screen, its shape kept", arguments: [
        (size(640, 360), size(640, 360)),
        (size(800, 450), size(800, 450)),
        (size(1920, 1080), size(896, 504)),
        (size(3840, 2160), size(896, 504)),
        (size(1080, 1920), size(640, 560)),   // portrait: as tall as it may be, black beside it
    ])
    func ownSize(picture: WindowFit.Size, window: WindowFit.Size) {
        #expect(WindowFit.size(for: picture, on: Self.screen) == window)
    }

    @Test("Small pictures open larger by whole multiples", arguments: [
        (size(320, 240), size(640, 480)),
        (size(160, 120), size(640, 480)),
        // Three times would pass 70 % of the screen's height: as large as fits.
        (size(300, 200), size(840, 560)),
    ])
    func enlarged(picture: WindowFit.Size, window: WindowFit.Size) {
        #expect(WindowFit.size(for: picture, on: Self.screen) == window)
    }

    @Test("A small or very wide picture gets at least 640×360: the header and the controls lie over black, not over the picture")
    func smallest() {
        // Scope at 640: 272 high, in a 360-high window.
        #expect(WindowFit.size(for: Self.size(640, 272), on: Self.screen) == Self.size(640, 360))
        // Scope at 320: enlarged twice, then the same.
        #expect(WindowFit.size(for: Self.size(320, 136), on: Self.screen) == Self.size(640, 360))
        // A panorama: as wide as it may be, 360 high.
        let wide = WindowFit.size(for: Self.size(3840, 800), on: Self.screen)
        #expect(wide == Self.size(896, 360))
        // The header bar (47) and the controls bar (about 60) cover under a third of the window.
        #expect((47 + 60) / wide.height < 1.0 / 3)
        // On a tiny screen the smallest is what fits.
        #expect(WindowFit.size(for: Self.size(640, 272), on: Self.size(800, 480)) == Self.size(560, 336))
    }

    @Test("A new size keeps the window's centre where it was")
    func keepsCentre() {
        let area = WindowFit.Rect(x: 0, y: 0, width: 1280, height: 800)
        let before = WindowFit.Rect(x: 320, y: 160, width: 640, height: 480)
        let after = WindowFit.placed(Self.size(896, 504), replacing: before, within: area)
        #expect(after == WindowFit.Rect(x: 192, y: 148, width: 896, height: 504))
        #expect(after.centre == before.centre)
    }

    @Test("Near an edge it moves only as far as it takes to stay on the screen (the work area: panels left out)")
    func staysOnScreen() {
        let area = WindowFit.Rect(x: 0, y: 32, width: 1280, height: 768)
        // In the bottom-right corner: grown, it would reach past both edges.
        let corner = WindowFit.placed(Self.size(896, 504), replacing: .init(x: 640, y: 320, width: 640, height: 480), within: area)
        #expect(corner == WindowFit.Rect(x: 384, y: 296, width: 896, height: 504))
        // At the top-left, below the panel.
        let top = WindowFit.placed(Self.size(896, 504), replacing: .init(x: 0, y: 32, width: 640, height: 360), within: area)
        #expect(top == WindowFit.Rect(x: 0, y: 32, width: 896, height: 504))
        // Larger than the area: its top-left corner inside it.
        let huge = WindowFit.placed(Self.size(1400, 900), replacing: .init(x: 100, y: 100, width: 640, height: 480), within: area)
        #expect(huge.x == 0 && huge.y == 32)
    }
}
