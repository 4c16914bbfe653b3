import ReelEngine
import Testing
@testable import ReelGtk

/// The renderer's colour math without GL: YUV→RGB matrices and offsets, chroma siting, and
/// which formats take which path. Threading: stateless, runs anywhere.
@Suite("Colour matrix")
struct ColorMatrixTests {
    /// Converts code values the way the shader sees them: divided by the texture's full scale.
    private func rgb(_ c: YUVConversion, _ y: Double, _ cb: Double, _ cr: Double, textureMax: Double = 255) -> [Double] {
        c.rgb(y: y / textureMax, cb: cb / textureMax, cr: cr / textureMax)
    }

    private func expectClose(_ got: [Double], _ want: [Double], within tolerance: Double = 1e-4,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        let worst = zip(got, want).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= tolerance, "got \(got), want \(want)", sourceLocation: sourceLocation)
    }

    @Test("Black, white and grey land on 0, 1 and ½ for every matrix, range and depth",
          arguments: [ColorMatrix.bt601, .bt709, .bt2020])
    func neutralGreys(matrix: ColorMatrix) {
        let limited8 = YUVConversion(matrix: matrix, range: .limited, bitDepth: 8, sampleScale: 255)
        expectClose(rgb(limited8, 16, 128, 128), [0, 0, 0])
        expectClose(rgb(limited8, 235, 128, 128), [1, 1, 1])
        expectClose(rgb(limited8, 125.5, 128, 128), [0.5, 0.5, 0.5])
        let full8 = YUVConversion(matrix: matrix, range: .full, bitDepth: 8, sampleScale: 255)
        expectClose(rgb(full8, 0, 128, 128), [0, 0, 0])
        expectClose(rgb(full8, 255, 128, 128), [1, 1, 1])
        // 10-bit in the low bits of 16-bit texels (yuv420p10le): 64 and 940 are black and white.
        let limited10 = YUVConversion(matrix: matrix, range: .limited, bitDepth: 10, sampleScale: 65535)
        expectClose(rgb(limited10, 64, 512, 512, textureMax: 65535), [0, 0, 0])
        expectClose(rgb(limited10, 940, 512, 512, textureMax: 65535), [1, 1, 1])
        let full10 = YUVConversion(matrix: matrix, range: .full, bitDepth: 10, sampleScale: 65535)
        expectClose(rgb(full10, 1023, 512, 512, textureMax: 65535), [1, 1, 1])
    }

    @Test("p010's high-bit samples convert like the same 10-bit codes in the low bits")
    func p010MatchesLowBitTenBit() {
        let low = YUVConversion(matrix: .bt2020, range: .limited, bitDepth: 10, sampleScale: 65535)
        let high = YUVConversion(matrix: .bt2020, range: .limited, bitDepth: 10, sampleScale: 65535.0 / 64)
        for (y, cb, cr) in [(64.0, 512.0, 512.0), (940, 64, 960), (502, 300, 700), (700, 960, 64)] {
            expectClose(rgb(high, y * 64, cb * 64, cr * 64, textureMax: 65535),
                        rgb(low, y, cb, cr, textureMax: 65535), within: 1e-5)
        }
    }

    /// RGB → Y′CbCr by the defining equations, quantised to 8-bit limited-range codes.
    private func encode(_ r: Double, _ g: Double, _ b: Double, _ matrix: ColorMatrix) -> (Double, Double, Double) {
        let (kr, kb) = matrix.lumaWeights
        let y = kr * r + (1 - kr - kb) * g + kb * b
        let cb = (b - y) / (2 * (1 - kb)), cr = (r - y) / (2 * (1 - kr))
        return ((16 + 219 * y).rounded(), (128 + 224 * cb).rounded(), (128 + 224 * cr).rounded())
    }

    @Test("Primaries and secondaries survive an encode-decode round trip within quantisation",
          arguments: [ColorMatrix.bt601, .bt709, .bt2020])
    func roundTrip(matrix: ColorMatrix) {
        let conversion = YUVConversion(matrix: matrix, range: .limited, bitDepth: 8, sampleScale: 255)
        let colours: [[Double]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 1], [0.75, 0.75, 0.75],
                                   [0.2, 0.5, 0.9], [0.9, 0.3, 0.1]]
        for colour in colours {
            let (y, cb, cr) = encode(colour[0], colour[1], colour[2], matrix)
            // Half a code of error in each of Y, Cb and Cr moves a channel by at most ~1 % here.
            expectClose(rgb(conversion, y, cb, cr), colour, within: 0.012)
        }
    }

    @Test("A wrong matrix is visibly wrong: BT.709 red decoded as BT.601 is off by far more than rounding")
    func matricesDiffer() {
        let (y, cb, cr) = encode(1, 0, 0, .bt709)
        let wrong = rgb(YUVConversion(matrix: .bt601, range: .limited, bitDepth: 8, sampleScale: 255), y, cb, cr)
        #expect(zip(wrong, [1.0, 0, 0]).map { abs($0 - $1) }.max()! > 0.05)
    }

    /// libswscale's own coefficients (crv, cbu, cgu, cgv in 1/65536, 8-bit limited range), as
    /// `sws_getCoefficients` returns them in FFmpeg 5.1: the oracle the picture tests compare to.
    @Test("The 8-bit limited-range matrices agree with libswscale's coefficient tables",
          arguments: [(ColorMatrix.bt601, [104597, 132201, 25675, 53279]),
                      (.bt709, [117489, 138438, 13975, 34925]),
                      (.bt2020, [110013, 140363, 12277, 42626])])
    func matchesLibswscale(matrix: ColorMatrix, coefficients: [Int]) {
        let m = YUVConversion(matrix: matrix, range: .limited, bitDepth: 8, sampleScale: 255).matrix.map(Double.init)
        // Column-major (column = Y, Cb, Cr; row = R, G, B): crv, cbu, −cgu, −cgv.
        let ours = [m[6], m[5], -m[4], -m[7]].map { $0 * 65536 }
        for (got, want) in zip(ours, coefficients) {
            #expect(abs(got - Double(want)) <= 1.5, "\(matrix): \(ours) vs libswscale \(coefficients)")
        }
        #expect(abs(Double(m[0]) - 255.0 / 219) < 1e-6)
    }

    // MARK: Chroma siting

    @Test("Left-sited 4:2:0 chroma is sampled a quarter chroma texel right of the luma coordinate")
    func leftSiting() {
        let siting = ChromaSiting(.left, range: .limited)
        #expect(siting == ChromaSiting(horizontal: .first, vertical: .centered))
        let h = ChromaSiting.transform(siting.horizontal, factor: 2, lumaSize: 640, chromaSize: 320)
        #expect(h.scale == 1)
        #expect(abs(Double(h.offset) - 0.25 / 320) < 1e-9)
        let v = ChromaSiting.transform(siting.vertical, factor: 2, lumaSize: 360, chromaSize: 180)
        #expect(v.scale == 1 && v.offset == 0)
    }

    @Test("Luma sample x reads chroma at (x − siting) / factor, texel centres included")
    func transformMapsSampleCentres() {
        // Odd width: 5 luma samples, 3 chroma samples; every siting, both factors.
        for (factor, luma, chroma) in [(2, 5, 3), (2, 640, 320), (4, 640, 160)] {
            for position in [ChromaSiting.Position.first, .centered, .last] {
                let t = ChromaSiting.transform(position, factor: factor, lumaSize: luma, chromaSize: chroma)
                let o = ChromaSiting.lumaOffset(position, factor: factor)
                for x in [0, 1, 2, luma - 1] {
                    let u = (Double(x) + 0.5) / Double(luma)
                    let chromaTexel = (u * Double(t.scale) + Double(t.offset)) * Double(chroma) - 0.5
                    #expect(abs(chromaTexel - (Double(x) - o) / Double(factor)) < 1e-5,
                            "factor \(factor) \(position) x \(x)")
                }
            }
        }
    }

    @Test("Siting offsets are libswscale's chr_pos / 256 (0 left, 128 centre for 2:1)")
    func offsetsMatchLibswscaleUnits() {
        #expect(ChromaSiting.lumaOffset(.first, factor: 2) * 256 == 0)
        #expect(ChromaSiting.lumaOffset(.centered, factor: 2) * 256 == 128)
        #expect(ChromaSiting.lumaOffset(.centered, factor: 4) * 256 == 384)
        #expect(ChromaSiting.lumaOffset(.last, factor: 2) * 256 == 256)
    }

    @Test("Unspecified siting follows the picture's family: MPEG (limited) left, JPEG (full) centre")
    func unspecifiedSiting() {
        #expect(ChromaSiting(.unspecified, range: .limited) == ChromaSiting(.left, range: .limited))
        #expect(ChromaSiting(.unspecified, range: .full) == ChromaSiting(.center, range: .full))
        #expect(ChromaSiting(.topLeft, range: .limited) == ChromaSiting(horizontal: .first, vertical: .first))
        #expect(ChromaSiting(.bottom, range: .full) == ChromaSiting(horizontal: .centered, vertical: .last))
    }

    // MARK: Layouts

    @Test("Pixel formats take the shader path, packed RGB, or libswscale")
    func layouts() {
        func yuv(_ format: PixelFormat, norm16: Bool = true) -> PictureLayout.YUV? {
            if case .yuv(let layout) = PictureLayout(format, sixteenBitTextures: norm16) { return layout }
            return nil
        }
        #expect(yuv(.yuv420p)?.horizontalSubsampling == 2 && yuv(.yuv420p)?.verticalSubsampling == 2)
        #expect(yuv(.yuv422p)?.horizontalSubsampling == 2 && yuv(.yuv422p)?.verticalSubsampling == 1)
        #expect(yuv(.yuv444p)?.horizontalSubsampling == 1 && yuv(.yuv444p)?.verticalSubsampling == 1)
        #expect(yuv(.nv12)?.semiPlanar == true && yuv(.nv12)?.chroma == .rg8)
        #expect(yuv(.yuv420p10)?.luma == .r16 && yuv(.yuv420p10)?.sampleScale == 65535)
        #expect(yuv(.p010)?.chroma == .rg16 && yuv(.p010)?.sampleScale == 65535.0 / 64)
        #expect(PictureLayout(.yuv420p10, sixteenBitTextures: false) == .converted)
        #expect(PictureLayout(.p010, sixteenBitTextures: false) == .converted)
        #expect(PictureLayout(.bgra, sixteenBitTextures: true) == .rgb(.rgba8, swapRedBlue: true))
        #expect(PictureLayout(.other("yuv410p"), sixteenBitTextures: true) == .converted)
        #expect(PictureLayout(.gray8, sixteenBitTextures: true) == .converted)
    }

    @Test("Rows GL cannot take as they are (bottom-up, or not whole texels) are refused")
    func strides() {
        #expect(PlaneTextures.canUpload(bytesPerRow: 704, width: 640, format: .r8))
        #expect(PlaneTextures.canUpload(bytesPerRow: 1280, width: 320, format: .rg8))
        #expect(!PlaneTextures.canUpload(bytesPerRow: -704, width: 640, format: .r8))
        #expect(!PlaneTextures.canUpload(bytesPerRow: 992, width: 321, format: .rgb8))
        #expect(!PlaneTextures.canUpload(bytesPerRow: 600, width: 320, format: .r16))
    }
}
