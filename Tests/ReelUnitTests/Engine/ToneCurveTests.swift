import Foundation
import ReelEngine
import Testing

/// The HDR mathematics as plain values: the transfer functions against the numbers of their
/// standards, libplacebo's BT.2390 curve and the plan's rules (peak, black, mode, gamut, Dolby
/// Vision), and the tables against the exact functions. Threading: stateless, runs anywhere.
@Suite("Tone curve")
struct ToneCurveTests {
    private typealias PQ = PerceptualQuantizer
    private typealias HLG = HybridLogGamma

    private func hdr10(peak: Double? = nil, black: Double? = nil, maxCLL: Int? = nil) -> HDRMetadata {
        HDRMetadata(mastering: peak == nil && black == nil ? nil
                        : HDRMetadata.Mastering(minLuminance: black, maxLuminance: peak),
                    maxCLL: maxCLL)
    }

    private func plan(_ transfer: TransferFunction = .pq, _ primaries: ColorPrimaries = .bt2020,
                      _ hdr: HDRMetadata? = nil) throws -> ColourPlan {
        try #require(ColourPlan(transfer: transfer, primaries: primaries, hdr: hdr))
    }

    @Test("PQ: reference white (203 cd/m²) is signal 0.5807, and light and signal round-trip")
    func perceptualQuantizer() {
        #expect(abs(PQ.signal(nits: 203) - 0.5807) <= 1e-4)
        #expect(PQ.signal(nits: 0) < 1e-6)
        #expect(abs(PQ.signal(nits: 10000) - 1) < 1e-12)
        #expect(abs(PQ.signal(nits: 1000) - 0.7518) < 1e-4)
        for nits in [0.0001, 0.005, 0.1, 1, 48, 100, 203, 1000, 4000, 10000] {
            #expect(abs(PQ.nits(signal: PQ.signal(nits: nits)) - nits) <= nits * 1e-9, "\(nits) cd/m²")
        }
        // Signals up to PQ(0) = c1^m2 ≈ 7.3e-7 all stand for no light; above it, one to one.
        for signal in stride(from: 1.0 / 64, through: 1, by: 1.0 / 64) {
            #expect(abs(PQ.signal(nits: PQ.nits(signal: signal)) - signal) < 1e-9, "signal \(signal)")
        }
    }

    @Test("HLG: a 75 % signal is reference white on a 1000 cd/m² display (BT.2408), and the OETF round-trips")
    func hybridLogGamma() {
        let white = HLG.displayLight(SIMD3(repeating: 0.75), peak: 1000, black: 0, luma: Gamut.bt2020.luma)
        #expect(abs(white.x - 203) <= 0.5 && abs(white.y - 203) <= 0.5 && abs(white.z - 203) <= 0.5, "\(white)")
        #expect(abs(HLG.displayLight(.one, peak: 1000, black: 0, luma: Gamut.bt2020.luma).y - 1000) < 1e-3)
        #expect(HLG.systemGamma(peak: 1000) == 1.2)
        #expect(abs(HLG.systemGamma(peak: 2000) - (1.2 + 0.42 * log10(2))) < 1e-12)
        #expect(HLG.systemGamma(peak: 100) == 1, "no inverse tone mapping below 1000 cd/m²")
        #expect(abs(HLG.signal(scene: 1.0 / 12) - 0.5) < 1e-12)
        #expect(abs(HLG.signal(scene: 1) - 1) < 1e-6)
        for e in stride(from: 0.0, through: 1, by: 1.0 / 50) {
            #expect(abs(HLG.scene(signal: HLG.signal(scene: e)) - e) < 1e-9, "scene \(e)")
        }
        // A black of 0.005 cd/m² lifts the signal so that code 0 shows it.
        let black = HLG.displayLight(.zero, peak: 1000, black: 0.005, luma: Gamut.bt2020.luma)
        #expect(abs(black.y - 0.005) < 1e-9)
    }

    @Test("BT.1886 with black: code 0 is the display's black, 1 its peak, and the inverse undoes it")
    func bt1886() {
        let display = BT1886(peak: 203, black: 0.203)
        #expect(abs(display.light(signal: 0) - 0.203) < 1e-9)
        #expect(abs(display.light(signal: 1) - 203) < 1e-9)
        for v in stride(from: 0.0, through: 1, by: 0.05) {
            #expect(abs(display.signal(light: display.light(signal: v)) - v) < 1e-12)
        }
    }

    @Test("BT.2020 to BT.709 keeps white and has BT.2087's coefficients")
    func gamut() {
        let m = Gamut.bt2020.conversion(to: .bt709)
        let white = m * .one
        #expect(abs(white.x - 1) < 1e-9 && abs(white.y - 1) < 1e-9 && abs(white.z - 1) < 1e-9)
        #expect(abs(m.rows.0.x - 1.6605) < 1e-4 && abs(m.rows.0.y + 0.5876) < 1e-4 && abs(m.rows.0.z + 0.0728) < 1e-4)
        #expect(abs(m.rows.1.x + 0.1246) < 1e-4 && abs(m.rows.1.y - 1.1329) < 1e-4)
        #expect(abs(Gamut.bt2020.luma.x - 0.2627) < 1e-4 && abs(Gamut.bt2020.luma.z - 0.0593) < 1e-4)
        let product = m * m.inverse
        #expect(abs(product.rows.0.x - 1) < 1e-12 && abs(product.rows.0.y) < 1e-12 && abs(product.rows.2.z - 1) < 1e-12)
    }

    @Test("BT.2390 as libplacebo: rising, source peak to target peak, knee at 2·maxL − 1 with a smooth join")
    func curveShape() throws {
        for hdr in [hdr10(peak: 1000, black: 0.0001), nil] {
            let plan = try plan(.pq, .bt2020, hdr)
            let curve = try #require(plan.curve)
            #expect(curve.kneeStart == 2 * curve.maxL - 1)
            #expect(curve.kneeStart > 0 && curve.kneeStart < 1)
            // Rising; near the source's peak the spline flattens into the target's peak.
            var last = -Double.infinity
            for i in 0...4000 {
                let root = plan.sourceMin.squareRoot() + (plan.sourceMax.squareRoot() - plan.sourceMin.squareRoot()) * Double(i) / 4000
                let x = root * root, y = curve(x)
                if x <= plan.sourceMax / 2 { #expect(y > last, "not rising at \(x)") } else { #expect(y >= last, "falls at \(x)") }
                last = y
            }
            #expect(abs(curve(plan.sourceMax) - plan.targetMax) < 1e-9)
            #expect(curve(plan.sourceMin) >= plan.targetMin - 1e-9)
            #expect(curve(2 * plan.sourceMax) == curve(plan.sourceMax), "clamped above the source's peak")
            // Below the knee the curve is the identity plus the black lift; the spline joins it
            // with the same slope.
            let h = 1e-6, ks = curve.kneeStart
            let below = (curve.normalised(ks - h) - curve.normalised(ks - 2 * h)) / h
            let above = (curve.normalised(ks + 2 * h) - curve.normalised(ks + h)) / h
            #expect(abs(below - above) < 1e-3, "slopes \(below) and \(above) at the knee")
            // libplacebo's knee, not BT.2390's 1.5·maxL − 0.5, which compresses from lower down.
            #expect(ks < 1.5 * curve.maxL - 0.5)
        }
    }

    @Test("The peak rule: mastering peak in [1, 10000], else MaxCLL, else 10000 (PQ) or 1000 (HLG); black from mastering or 0.005")
    func peakRule() {
        #expect(ColourPlan.peak(transfer: .pq, hdr: hdr10(peak: 1000, maxCLL: 400)) == (1000, .mastering))
        #expect(ColourPlan.peak(transfer: .pq, hdr: hdr10(peak: 0, maxCLL: 400)) == (400, .contentLight))
        #expect(ColourPlan.peak(transfer: .pq, hdr: hdr10(peak: 20000, maxCLL: 4000)) == (4000, .contentLight))
        #expect(ColourPlan.peak(transfer: .pq, hdr: hdr10(maxCLL: 20000)) == (10000, .assumed))
        #expect(ColourPlan.peak(transfer: .pq, hdr: nil) == (10000, .assumed))
        #expect(ColourPlan.peak(transfer: .hlg, hdr: nil) == (1000, .assumed))
        #expect(ColourPlan.peak(transfer: .hlg, hdr: hdr10(maxCLL: 600)) == (1000, .assumed))
        #expect(ColourPlan.peak(transfer: .hlg, hdr: hdr10(peak: 600)) == (600, .mastering))
        #expect(ColourPlan.black(hdr: hdr10(peak: 1000, black: 0.0001)) == 0.0001)
        #expect(ColourPlan.black(hdr: hdr10(peak: 1000, black: 0)) == 0.005)
        #expect(ColourPlan.black(hdr: hdr10(peak: 1000, black: 200)) == 0.005)
        #expect(ColourPlan.black(hdr: nil) == 0.005)
    }

    @Test("Luma mapping up to 10:1 over the target's peak, hybrid above; none when the source fits")
    func modeSwitch() throws {
        #expect(try plan(.pq, .bt2020, hdr10(peak: 1000)).mode == .luma)
        #expect(try plan(.pq, .bt2020, hdr10(peak: 2030)).mode == .luma, "exactly 10:1")
        #expect(try plan(.pq, .bt2020, hdr10(peak: 2031)).mode == .hybrid)
        #expect(try plan(.pq, .bt2020, nil).mode == .hybrid)
        #expect(try plan(.hlg, .bt2020, nil).mode == .luma)
        #expect(try plan(.pq, .bt2020, hdr10(peak: 150)).mode == .none)
        let sdr2020 = try plan(.bt2020_10, .bt2020, nil)
        #expect(sdr2020.mode == .none && sdr2020.linearisation == .bt1886 && sdr2020.gamutMap != nil)
        #expect(try plan(.pq, .bt709, nil).gamutMap == nil, "BT.709 sources keep their gamut")
        #expect(ColourPlan(transfer: .bt709, primaries: .bt709, hdr: nil) == nil, "SDR BT.709 is drawn as before")
        #expect(ColourPlan(transfer: .unspecified, primaries: .unspecified, hdr: nil) == nil)
    }

    @Test("Dolby Vision: a base layer that stands alone plays as itself (HDR10 for 7 and 8.1), profile 5 does not")
    func dolbyVision() {
        func record(_ profile: Int, _ compatibility: Int, base: Bool = true) -> DolbyVision {
            DolbyVision(profile: profile, level: 6, hasRPU: true, hasEnhancementLayer: profile == 7, hasBaseLayer: base,
                        compatibility: compatibility)
        }
        #expect(record(8, 1).playback == .hdr10)
        #expect(record(7, 6).playback == .hdr10)
        #expect(record(8, 4).playback == .hlg)
        #expect(record(8, 2).playback == .sdr)
        #expect(record(5, 0).playback == .unsupported)
        #expect(record(8, 1, base: false).playback == .unsupported)
        #expect(record(8, 1).baseLayerTransfer(tagged: .pq) == .pq)
        #expect(record(8, 1).baseLayerTransfer(tagged: .unspecified) == .pq)
        #expect(record(8, 4).baseLayerTransfer(tagged: .unspecified) == .hlg)
        #expect(record(5, 0).baseLayerTransfer(tagged: .pq) == nil)
    }

    @Test("Greys stay grey and white and black land on the target's; the chain is monotonic in grey")
    func pixelChain() throws {
        for plan in [try plan(.pq, .bt2020, hdr10(peak: 1000, black: 0.0001)), try plan(.pq, .bt2020, nil),
                     try plan(.hlg, .bt2020, nil), try plan(.bt2020_10, .bt2020, nil)] {
            var last = -1.0
            for v in stride(from: 0.0, through: 1, by: 1.0 / 256) {
                let out = plan.signal(for: SIMD3(repeating: v))
                #expect(abs(out.x - out.y) < 1e-6 && abs(out.z - out.y) < 1e-6, "\(plan.linearisation) grey \(v): \(out)")
                #expect(out.y >= last - 1e-12, "\(plan.linearisation) falls at \(v)")
                last = out.y
            }
            #expect(plan.signal(for: .zero).y < 0.01)
        }
        let sdr = try plan(.bt2020_10, .bt2020, nil)
        #expect(abs(sdr.signal(for: .one).y - 1) < 1e-9)
        #expect(abs(sdr.signal(for: SIMD3(repeating: 0.5)).y - 0.5) < 1e-9, "BT.1886 in and out at the same contrast")
        let bare = try plan(.pq, .bt2020, nil)
        #expect(bare.signal(for: .one).y > 0.999, "the source's peak reaches the target's")
    }

    /// R′G′B′ in, BT.1886 signal out, as the numpy model of libplacebo 4.208's mathematics
    /// (77–80 dB from FFmpeg's libplacebo filter on the fixtures) computes them.
    private static let reference: [(TransferFunction, HDRMetadata?, [(SIMD3<Double>, SIMD3<Double>)])] = [
        (.pq, HDRMetadata(mastering: .init(minLuminance: 0.0001, maxLuminance: 1000)), [
            ([0.3, 0.3, 0.3], [0.260493, 0.260493, 0.260493]), ([0.5807, 0.5807, 0.5807], [0.833588, 0.833588, 0.833588]),
            ([0.75, 0.75, 0.75], [1, 1, 1]), ([0.7, 0.2, 0.1], [1, 0, 0]), ([0.9, 0.85, 0.3], [1, 1, 0]),
            ([0.45, 0.5, 0.55], [0.380117, 0.686662, 0.858284]),
        ]),
        (.pq, nil, [
            ([0.3, 0.3, 0.3], [0.253219, 0.253219, 0.253219]), ([0.5807, 0.5807, 0.5807], [0.640991, 0.640991, 0.640991]),
            ([0.75, 0.75, 0.75], [0.857408, 0.857408, 0.857408]), ([0.2, 0.6, 0.3], [0, 0.76719, 0]),
            ([0.9, 0.85, 0.3], [1, 0.940328, 0.529165]), ([0.45, 0.5, 0.55], [0.307241, 0.539828, 0.67265]),
        ]),
        (.hlg, nil, [
            ([0.3, 0.3, 0.3], [0.318423, 0.318423, 0.318423]), ([0.75, 0.75, 0.75], [0.836633, 0.836633, 0.836633]),
            ([0.7, 0.2, 0.1], [0.989979, 0, 0]), ([0.2, 0.6, 0.3], [0, 0.696155, 0.283457]),
            ([0.1, 0.2, 0.9], [0, 0.123107, 1]), ([0.45, 0.5, 0.55], [0.450088, 0.546565, 0.602143]),
        ]),
        (.bt2020_10, nil, [
            ([0.3, 0.3, 0.3], [0.3, 0.3, 0.3]), ([0.7, 0.2, 0.1], [0.867702, 0, 0]),
            ([0.2, 0.6, 0.3], [0, 0.631293, 0.246447]), ([0.1, 0.2, 0.9], [0, 0.189043, 0.944195]),
            ([0.9, 0.85, 0.3], [0.952647, 0.846344, 0]), ([0.45, 0.5, 0.55], [0.407849, 0.505363, 0.556309]),
        ]),
    ]

    @Test("The chain gives the reference model's signals: PQ with and without metadata, HLG, BT.2020 SDR")
    func matchesReferenceModel() throws {
        for (transfer, hdr, pixels) in Self.reference {
            let plan = try plan(transfer, .bt2020, hdr)
            for (input, expected) in pixels {
                let out = plan.signal(for: input)
                let worst = max(abs(out.x - expected.x), abs(out.y - expected.y), abs(out.z - expected.z))
                #expect(worst < 1e-5, "\(transfer) \(hdr == nil ? "bare" : "metadata") \(input): \(out), want \(expected)")
            }
        }
    }

    @Test("The tables agree with the exact functions")
    func tables() throws {
        for plan in [try plan(.pq, .bt2020, hdr10(peak: 1000, black: 0.0001)), try plan(.pq, .bt2020, nil)] {
            let curve = try #require(plan.curve)
            let table = plan.curveTable(size: 1025)
            #expect(table.count == 1025)
            for y in [plan.sourceMin, 0.01, 0.2, 1, 2.5, plan.sourceMax / 2, plan.sourceMax] {
                let position = plan.curveTablePosition(y, size: 1025)
                let i = min(Int(position), 1023), t = Float(position - Double(i))
                let mapped = Double(table[i].x + (table[i + 1].x - table[i].x) * t)
                let code = 255 * abs(ColourPlan.target.signal(light: mapped) - ColourPlan.target.signal(light: curve(y)))
                #expect(code < 0.2, "f(\(y)) is \(code) of a code off")
            }
            let linear = plan.linearisationTable(size: 65536)
            for i in [0, 1000, 32768, 50000, 65535] {
                let exact = PQ.nits(signal: Double(i) / 65535) / ColourPlan.referenceWhite
                #expect(abs(Double(linear[i]) - exact) <= exact * 1e-6 + 1e-9)
            }
        }
        let plan = try plan(.hlg, .bt2020, nil)
        #expect(plan.curveTable().count == 1025)
        let codes = plan.encodingTable(size: 4097)
        #expect(codes.first == 0 && codes.last == 255)
        #expect(zip(codes, codes.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(codes[2048] == UInt8((ColourPlan.target.signal(light: 0.25) * 255).rounded()))
    }
}
