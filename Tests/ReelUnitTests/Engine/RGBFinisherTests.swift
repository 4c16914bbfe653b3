import Foundation
import ReelEngine
import Testing

/// The CPU path's finisher against the plan's double-precision chain (`ColourPlan.signal(for:)`,
/// itself checked against the reference model in `ToneCurveTests`): every pixel of a grid
/// within one code, for each kind of plan the finisher is used for.
/// Threading: stateless, runs anywhere.
@Suite("RGB finisher")
struct RGBFinisherTests {
    private static let mastered = HDRMetadata(mastering: .init(minLuminance: 0.0001, maxLuminance: 1000))

    /// The inputs, as 16-bit codes: the cube's corners and a 9-step grid through it, a grey
    /// ramp, BT.2020's primaries and secondaries at rising levels (far outside BT.709), and
    /// for PQ everything above a 1000 cd/m² peak (signals 0.752 to 1).
    private static var grid: [SIMD3<UInt16>] {
        var pixels: [SIMD3<UInt16>] = []
        let steps = (0...8).map { UInt16(min(65535, $0 * 8192)) }
        for r in steps { for g in steps { for b in steps { pixels.append(SIMD3(r, g, b)) } } }
        for v in stride(from: 0, through: 65535, by: 257) { pixels.append(SIMD3(repeating: UInt16(v))) }
        for level in stride(from: 4096, through: 65535, by: 4096) + [65535] {
            let v = UInt16(level)
            for hue: SIMD3<UInt16> in [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 1]] {
                pixels.append(hue &* v)
            }
        }
        for level in stride(from: 49300, through: 65535, by: 541) {
            let v = UInt16(level)
            pixels += [SIMD3(repeating: v), SIMD3(v, v / 2, v / 3), SIMD3(v / 4, v, v / 2), SIMD3(0, 0, v)]
        }
        // Colours in between, from a fixed sequence.
        var seed: UInt32 = 2026
        for _ in 0..<3000 {
            var c = SIMD3<UInt16>()
            for i in 0..<3 {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                c[i] = UInt16(seed >> 16)
            }
            pixels.append(c)
        }
        return pixels
    }

    /// The finisher's BGRA for `pixels`, laid out as one row of planes.
    private func finished(_ pixels: [SIMD3<UInt16>], _ plan: ColourPlan) -> [UInt8] {
        let red = pixels.map(\.x), green = pixels.map(\.y), blue = pixels.map(\.z)
        var bgra = [UInt8](repeating: 0, count: pixels.count * 4)
        let finisher = RGBFinisher(plan: plan)
        red.withUnsafeBufferPointer { r in
            green.withUnsafeBufferPointer { g in
                blue.withUnsafeBufferPointer { b in
                    bgra.withUnsafeMutableBufferPointer { out in
                        finisher.finish(red: r.baseAddress!, green: g.baseAddress!, blue: b.baseAddress!,
                                        sourceStride: pixels.count, into: out.baseAddress!,
                                        targetStride: pixels.count * 4, width: pixels.count, height: 1)
                    }
                }
            }
        }
        return bgra
    }

    private func expectAgreement(_ transfer: TransferFunction, _ hdr: HDRMetadata?, _ name: String) throws {
        let plan = try #require(ColourPlan(transfer: transfer, primaries: .bt2020, hdr: hdr))
        let pixels = Self.grid
        let bgra = finished(pixels, plan)
        var worst = 0, worstPixel = SIMD3<UInt16>(), failures = 0
        for (i, pixel) in pixels.enumerated() {
            let exact = plan.signal(for: SIMD3<Double>(pixel) / 65535)
            let want = [exact.z, exact.y, exact.x].map { Int(($0 * 255).rounded()) }
            let got = (0..<3).map { Int(bgra[4 * i + $0]) }
            let off = zip(want, got).map { abs($0 - $1) }.max()!
            if off > worst { worst = off; worstPixel = pixel }
            if off > 1 { failures += 1 }
            if bgra[4 * i + 3] != 255 { failures += 1 }
        }
        #expect(failures == 0, "\(name): \(failures) of \(pixels.count) pixels off by more than a code; worst \(worst) at \(worstPixel)")
        #expect(worst <= 1, "\(name): worst \(worst) codes at \(worstPixel)")
    }

    @Test("HDR10 with mastering metadata (1000 cd/m², luma mode) within a code of the exact chain")
    func hdr10Mastered() throws {
        let plan = try #require(ColourPlan(transfer: .pq, primaries: .bt2020, hdr: Self.mastered))
        #expect(plan.mode == .luma)
        try expectAgreement(.pq, Self.mastered, "pq-meta")
    }

    @Test("HDR10 without metadata (10000 cd/m², hybrid mode) within a code of the exact chain")
    func hdr10Bare() throws {
        let plan = try #require(ColourPlan(transfer: .pq, primaries: .bt2020, hdr: nil))
        #expect(plan.mode == .hybrid)
        try expectAgreement(.pq, nil, "pq-bare")
    }

    @Test("HLG within a code of the exact chain")
    func hlg() throws {
        try expectAgreement(.hlg, nil, "hlg")
    }

    @Test("BT.2020 SDR (no tone mapping, gamut only) within a code of the exact chain")
    func bt2020SDR() throws {
        let plan = try #require(ColourPlan(transfer: .bt2020_10, primaries: .bt2020, hdr: nil))
        #expect(plan.mode == .none)
        try expectAgreement(.bt2020_10, nil, "2020-sdr")
    }

    @Test("SDR BT.709 has no plan, so it never reaches the finisher")
    func sdrBT709() {
        #expect(ColourPlan(transfer: .bt709, primaries: .bt709, hdr: nil) == nil)
        #expect(ColourPlan(transfer: .unspecified, primaries: .unspecified, hdr: nil) == nil)
        #expect(ColourPlan(transfer: .srgb, primaries: .bt709, hdr: nil) == nil)
    }

    @Test("Rows are read and written at their strides")
    func strides() throws {
        let plan = try #require(ColourPlan(transfer: .pq, primaries: .bt2020, hdr: Self.mastered))
        // Two rows of two pixels, sources 3 samples apart, targets 12 bytes apart.
        let red: [UInt16] = [30000, 40000, 9, 50000, 0, 9]
        let green: [UInt16] = [30000, 20000, 9, 10000, 65535, 9]
        let blue: [UInt16] = [30000, 10000, 9, 5000, 0, 9]
        var bgra = [UInt8](repeating: 7, count: 24)
        red.withUnsafeBufferPointer { r in
            green.withUnsafeBufferPointer { g in
                blue.withUnsafeBufferPointer { b in
                    bgra.withUnsafeMutableBufferPointer { out in
                        RGBFinisher(plan: plan).finish(red: r.baseAddress!, green: g.baseAddress!, blue: b.baseAddress!,
                                                       sourceStride: 3, into: out.baseAddress!, targetStride: 12,
                                                       width: 2, height: 2)
                    }
                }
            }
        }
        for (index, (row, column)) in [(0, 0), (0, 1), (1, 0), (1, 1)].enumerated() {
            let s = row * 3 + column
            let exact = plan.signal(for: SIMD3(Double(red[s]), Double(green[s]), Double(blue[s])) / 65535)
            let at = row * 12 + column * 4
            let want = [exact.z, exact.y, exact.x].map { Int(($0 * 255).rounded()) }
            for c in 0..<3 { #expect(abs(Int(bgra[at + c]) - want[c]) <= 1, "pixel \(index) channel \(c)") }
            #expect(bgra[at + 3] == 255)
        }
        #expect(Array(bgra[8..<12]) == [7, 7, 7, 7] && Array(bgra[20..<24]) == [7, 7, 7, 7], "padding untouched")
    }
}
