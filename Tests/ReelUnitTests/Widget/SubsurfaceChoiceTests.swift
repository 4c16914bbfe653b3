@testable import ReelGtk
import Testing

/// When the CPU path puts the picture on a Wayland subsurface of its own, and the black bars it
/// paints around the picture in that buffer.
@Suite("Wayland subsurface")
struct SubsurfaceChoiceTests {
    @Test("Used for the CPU path on Wayland only, unless the variable turns it off")
    func choice() {
        #expect(SubsurfaceChoice.decide(path: .software, isWayland: true, environment: nil).isUsed)
        #expect(SubsurfaceChoice.decide(path: .software, isWayland: true, environment: "1").isUsed)
        #expect(!SubsurfaceChoice.decide(path: .software, isWayland: false, environment: nil).isUsed)
        #expect(!SubsurfaceChoice.decide(path: .gl, isWayland: true, environment: nil).isUsed)
        for off in ["0", "no", "FALSE", "off"] {
            let choice = SubsurfaceChoice.decide(path: .software, isWayland: true, environment: off)
            #expect(!choice.isUsed, "\(off)")
            #expect(choice.reason.contains("REEL_WAYLAND_SUBSURFACE"))
        }
    }

    /// The bars and the picture cover the view exactly once: every pixel counted.
    static func coverage(_ picture: VideoRect, _ width: Int, _ height: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: width * height)
        let clipped = PictureSurroundings(of: picture, inWidth: width, height: height).bars + [picture]
        for rect in clipped {
            for y in max(rect.y, 0)..<min(rect.y + rect.height, height) {
                for x in max(rect.x, 0)..<min(rect.x + rect.width, width) { counts[y * width + x] += 1 }
            }
        }
        return counts
    }

    @Test("Letterbox, pillarbox, both, none, and a zoomed picture past the edges: the bars tile the rest")
    func surroundings() {
        let cases = [
            VideoRect(x: 0, y: 10, width: 64, height: 20),   // letterbox
            VideoRect(x: 12, y: 0, width: 40, height: 48),   // pillarbox
            VideoRect(x: 5, y: 7, width: 30, height: 20),    // both (a smaller zoom)
            VideoRect(x: 0, y: 0, width: 64, height: 48),    // none
            VideoRect(x: -20, y: 6, width: 120, height: 30), // wider than the view
        ]
        for picture in cases {
            #expect(Self.coverage(picture, 64, 48).allSatisfy { $0 == 1 }, "\(picture)")
        }
        #expect(PictureSurroundings(of: VideoRect(x: 0, y: 0, width: 64, height: 48), inWidth: 64, height: 48).bars.isEmpty)
        #expect(PictureSurroundings(of: VideoRect(x: 0, y: 10, width: 64, height: 20), inWidth: 64, height: 48).bars
            == [VideoRect(x: 0, y: 0, width: 64, height: 10), VideoRect(x: 0, y: 30, width: 64, height: 18)])
    }
}
