import ReelEngine
import Testing
@testable import ReelGtk

/// The video equalizer's values and mathematics without a picture: steps and limits, the
/// settings text, what each control does to a colour (mpv's meanings: contrast pivots at black,
/// hue turns red towards blue for a positive value), the GL matrix folding and the CPU stage
/// agreeing with it. Threading: stateless, runs anywhere.
@Suite("Video equalizer")
struct EqualizerTests {
    private func expectClose(_ got: SIMD3<Double>, _ want: SIMD3<Double>, within tolerance: Double = 1e-6,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        let worst = max(abs(got.x - want.x), abs(got.y - want.y), abs(got.z - want.z))
        #expect(worst <= tolerance, "got \(got), want \(want)", sourceLocation: sourceLocation)
    }

    @Test("Steps stop at ±100; a neutral equalizer is the identity on every matrix")
    func steps() {
        var e = Equalizer.neutral
        #expect(e.isNeutral)
        for _ in 0..<150 { e = e.stepped(.contrast, by: 1) }
        #expect(e.contrast == 100)
        e = e.stepped(.gamma, by: -300)
        #expect(e.gamma == -100 && !e.isNeutral)
        #expect(Equalizer(hue: 500).hue == 100)
        for matrix in [ColorMatrix.bt601, .bt709, .bt2020] {
            let m = Equalizer.neutral.rgbMatrix(matrix)
            for v in [SIMD3<Double>(1, 0, 0), [0.2, 0.7, 0.4], [1, 1, 1]] { expectClose(m * v, v) }
        }
    }

    @Test("The settings text: any controls, any order; anything else is refused")
    func parsing() {
        #expect(Equalizer(parsing: "contrast=20") == Equalizer(contrast: 20))
        #expect(Equalizer(parsing: "hue=-5,gamma=7, saturation = 3") == Equalizer(gamma: 7, saturation: 3, hue: -5))
        for bad in ["", "contrast", "contrast=101", "sharpness=1", "hue=1.5", "contrast=1,,hue=2"] {
            #expect(Equalizer(parsing: bad) == nil, "\(bad) was taken")
        }
    }

    @Test("Contrast pivots at black; brightness lifts every channel; saturation 0 is grey of the same luma")
    func meanings() {
        let m709 = Equalizer(contrast: 50).rgbMatrix(.bt709)
        expectClose(m709 * SIMD3(0, 0, 0), [0, 0, 0])
        expectClose(m709 * SIMD3(0.4, 0.2, 0.6), [0.6, 0.3, 0.9])
        #expect(Equalizer(brightness: 10).offset == 0.1)
        let grey = Equalizer(saturation: -100).rgbMatrix(.bt709) * SIMD3(1, 0, 0)
        expectClose(grey, SIMD3(repeating: 0.2126))
        // Gamma: 8^(v/100), so ±100 is a factor of 8 either way.
        #expect(abs(Equalizer(gamma: 100).gammaFactor - 8) < 1e-12 && abs(Equalizer(gamma: -100).gammaFactor - 0.125) < 1e-12)
    }

    @Test("A positive hue turns red towards magenta and blue, as mpv's does (FFmpeg's hue filter turns the other way)")
    func hueSign() {
        let red = SIMD3<Double>(1, 0, 0)
        let turned = Equalizer(hue: 30).rgbMatrix(.bt709) * red
        #expect(turned.z > turned.y + 0.2, "red under hue +30 became \(turned)")
        let other = Equalizer(hue: -30).rgbMatrix(.bt709) * red
        #expect(other.y > other.z + 0.2, "red under hue −30 became \(other)")
        // Luma stays: hue and saturation move only chroma.
        let luma = SIMD3(0.2126, 0.7152, 0.0722)
        #expect(abs((turned * luma).sum() - 0.2126) < 1e-9)
    }

    @Test("The GL matrix with the equalizer folded in is the plain conversion followed by the equalizer")
    func folding() {
        let e = Equalizer(contrast: 15, brightness: -8, saturation: 25, hue: -12)
        for (matrix, range, depth, scale) in [(ColorMatrix.bt709, ColorRange.limited, 8, 255.0), (.bt601, .full, 8, 255),
                                              (.bt2020, .limited, 10, 65535)] {
            let plain = YUVConversion(matrix: matrix, range: range, bitDepth: depth, sampleScale: scale)
            let folded = YUVConversion(plain, equalizer: e, matrix: matrix)
            for sample in [(0.3, 0.5, 0.6), (0.1, 0.45, 0.52), (0.9, 0.2, 0.7)] {
                let before = plain.rgb(y: sample.0, cb: sample.1, cr: sample.2)
                let want = e.rgbMatrix(matrix) * SIMD3(before[0], before[1], before[2]) + SIMD3(repeating: e.offset)
                let got = folded.rgb(y: sample.0, cb: sample.1, cr: sample.2)
                expectClose(SIMD3(got[0], got[1], got[2]), want, within: 1e-5)
            }
        }
    }

    @Test("The CPU stage does the same map on 16-bit codes, clipped, and packs through the gamma")
    func stage() {
        let e = Equalizer(contrast: 20, brightness: 10, gamma: 100, saturation: -40, hue: 15)
        let stage = EqualizerStage(e, matrix: .bt709)
        var r: [UInt16] = [0, 65535, 30000, 12000], g: [UInt16] = [0, 65535, 20000, 50000], b: [UInt16] = [0, 0, 40000, 9000]
        let input = (0..<4).map { SIMD3(Double(r[$0]), Double(g[$0]), Double(b[$0])) / 65535 }
        r.withUnsafeMutableBufferPointer { rp in g.withUnsafeMutableBufferPointer { gp in b.withUnsafeMutableBufferPointer { bp in
            stage.adjust(red: rp.baseAddress!, green: gp.baseAddress!, blue: bp.baseAddress!, stride: 4, width: 4, height: 1)
        } } }
        for i in 0..<4 {
            let want = e.rgbMatrix(.bt709) * input[i] + SIMD3(repeating: e.offset)
            let clipped = SIMD3(min(max(want.x, 0), 1), min(max(want.y, 0), 1), min(max(want.z, 0), 1)) * 65535
            expectClose(SIMD3(Double(r[i]), Double(g[i]), Double(b[i])), clipped, within: 1)
        }
        var bgra = [UInt8](repeating: 0, count: 16)
        let grey: [UInt16] = [0, 32768, 65535, 16384]
        bgra.withUnsafeMutableBufferPointer { out in
            stage.pack(red: grey, green: grey, blue: grey, stride: 4, into: out.baseAddress!, targetStride: 16, width: 4, height: 1)
        }
        // Gamma +100: V^(1/8).
        #expect(stride(from: 0, to: 16, by: 4).map { bgra[$0] } == [0, 234, 255, 214])
        #expect(stride(from: 3, to: 16, by: 4).allSatisfy { bgra[$0] == 255 })
    }
}
