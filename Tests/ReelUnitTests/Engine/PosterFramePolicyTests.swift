import Foundation
@testable import ReelEngine
import Testing

/// Which frame stands for a video in a file manager: the candidate times and what counts as
/// black, blank or fading, judged on synthetic RGBA pictures (the engine tests run the real
/// thumbnailer on a clip that opens on black and fades in).
@Suite("Poster frame policy")
struct PosterFramePolicyTests {
    static let width = 64, height = 36

    /// A picture made of `pixel(x, y)` as RGB.
    static func picture(_ pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> PictureLevels {
        var data = Data(count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                let i = 4 * (y * width + x)
                data[i] = r; data[i + 1] = g; data[i + 2] = b; data[i + 3] = 255
            }
        }
        return PictureLevels(rgba: data, width: width, height: height)
    }

    /// Colour bars with a gradient over them, `brightness` of full (1 is as shot).
    static func bars(brightness: Double) -> PictureLevels {
        let colours: [(Double, Double, Double)] = [(235, 235, 235), (235, 235, 16), (16, 235, 235), (16, 235, 16),
                                                    (235, 16, 235), (235, 16, 16), (16, 16, 235), (16, 16, 16)]
        return picture { x, y in
            let c = colours[x * colours.count / width]
            let shade = 0.6 + 0.4 * Double(y) / Double(height)
            func level(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * shade * brightness).rounded()))) }
            return (level(c.0), level(c.1), level(c.2))
        }
    }

    let policy = PosterFramePolicy()

    @Test("A tenth of the way in first, then over the body; the start and a few seconds without a length")
    func candidates() {
        let times = policy.candidateTimes(duration: 100)
        #expect(times.count == 6 && zip(times, [10.0, 25, 40, 55, 70, 85]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
        #expect(policy.candidateTimes(duration: nil) == [0, 2, 10, 30])
        #expect(policy.candidateTimes(duration: 0) == [0, 2, 10, 30])
        #expect(policy.candidateTimes(duration: .infinity) == [0, 2, 10, 30])
    }

    @Test("Colour bars are shown; black, a flat grey, a flat colour with noise and a caption are not")
    func verdicts() {
        #expect(policy.verdict(Self.bars(brightness: 1)) == .shown)
        #expect(policy.verdict(Self.picture { _, _ in (0, 0, 0) }) == .dark)
        #expect(policy.verdict(Self.picture { _, _ in (16, 16, 16) }) == .dark)
        #expect(policy.verdict(Self.picture { _, _ in (128, 128, 128) }) == .blank)
        #expect(policy.verdict(Self.picture { _, _ in (250, 250, 250) }) == .blank)
        // Blue with a little noise and a white caption across a few rows: blank.
        let card = Self.picture { x, y in
            if (16..<19).contains(y) && (8..<56).contains(x) { return (255, 255, 255) }
            let noise = UInt8((x * 7 + y * 13) % 5)
            return (20 + noise, 36 + noise, 180 + noise)
        }
        #expect(card.dominantShare > 0.9)
        #expect(policy.verdict(card) == .blank)
    }

    @Test("Through a fade from black: dark near its start, shown once it is a third of the way up")
    func fade() {
        #expect(policy.verdict(Self.bars(brightness: 0.05)) == .dark)
        #expect(policy.verdict(Self.bars(brightness: 0.17)) == .dark)
        #expect(policy.verdict(Self.bars(brightness: 0.35)) == .shown)
        #expect(policy.verdict(Self.bars(brightness: 0.67)) == .shown)
    }

    @Test("When nothing passes, the one with more to see wins")
    func bestOfBad() {
        let black = Self.picture { _, _ in (0, 0, 0) }
        let dim = Self.bars(brightness: 0.1)
        let grey = Self.picture { _, _ in (128, 128, 128) }
        #expect(policy.isBetter(dim, than: black))
        #expect(policy.isBetter(dim, than: grey))
        #expect(!policy.isBetter(black, than: dim))
    }

    @Test("The levels of known pictures: mean, spread, bright end, the largest band")
    func levels() {
        let half = Self.picture { x, _ in x < Self.width / 2 ? (0, 0, 0) : (255, 255, 255) }
        #expect(abs(half.mean - 127.5) < 0.01)
        #expect(abs(half.deviation - 127.5) < 0.01)
        #expect(half.brightEnd == 255)
        #expect(abs(half.dominantShare - 0.5) < 0.001)
        // BT.709's weights: pure green is 0.7152 of white.
        let green = Self.picture { _, _ in (0, 255, 0) }
        #expect(abs(green.mean - 182) <= 1 && green.deviation == 0)
        #expect(PictureLevels(rgba: Data(), width: 0, height: 0).dominantShare == 1)
    }
}
