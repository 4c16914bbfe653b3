import Foundation

/// The CPU path's video equalizer, on the 16-bit R′G′B′ planes zimg writes: contrast,
/// saturation, hue and brightness as one affine map of R′G′B′ (`Equalizer.rgbMatrix`, the
/// same mathematics the GL path folds into its YUV matrix), and the gamma as the table that
/// packs the planes into BGRA rows. For HDR pictures only the map runs here, on the source
/// signal before `RGBFinisher` (which then applies the gamma after its encoding), as the shader
/// does. Threading: immutable after `init` (the table is only read), so one stage may serve
/// several threads at once.
public final class EqualizerStage: @unchecked Sendable {
    // @unchecked: the table is written once in `init`, freed in `deinit`, and only read in between.
    public let equalizer: Equalizer
    public let matrix: ColorMatrix
    private let rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    private let shift: Float
    /// R′G′B′ code (16 bits) to the 8-bit code shown, through the gamma.
    private let gammaTable: UnsafeMutablePointer<UInt8>

    public init(_ equalizer: Equalizer, matrix: ColorMatrix) {
        self.equalizer = equalizer
        self.matrix = matrix
        let m = equalizer.rgbMatrix(matrix)
        rows = (SIMD3<Float>(m.rows.0), SIMD3<Float>(m.rows.1), SIMD3<Float>(m.rows.2))
        shift = Float(equalizer.offset * 65535)
        gammaTable = .allocate(capacity: 65536)
        let exponent = 1 / equalizer.gammaFactor
        for code in 0..<65536 {
            gammaTable[code] = UInt8((pow(Double(code) / 65535, exponent) * 255).rounded())
        }
    }

    deinit { gammaTable.deallocate() }

    /// rgb′ = A·rgb + brightness on `width` × `height` samples of each plane, in place, rows
    /// `stride` samples apart; clipped to the code range as the shader's clamp does.
    public func adjust(red: UnsafeMutablePointer<UInt16>, green: UnsafeMutablePointer<UInt16>,
                       blue: UnsafeMutablePointer<UInt16>, stride: Int, width: Int, height: Int) {
        let (a, b, c, o) = (rows.0, rows.1, rows.2, shift)
        for y in 0..<height {
            let r = red + y * stride, g = green + y * stride, bl = blue + y * stride
            // Plain floats and no converting instruction that can trap: the loop vectorises
            // (with UInt16(Float) it ran at 10.7 ns a pixel).
            for x in 0..<width {
                let (vr, vg, vb) = (Float(r[x]), Float(g[x]), Float(bl[x]))
                r[x] = Self.code(a.x * vr + a.y * vg + a.z * vb + o)
                g[x] = Self.code(b.x * vr + b.y * vg + b.z * vb + o)
                bl[x] = Self.code(c.x * vr + c.y * vg + c.z * vb + o)
            }
        }
    }

    /// `v` clipped to 0…65535 and rounded to the nearest code: adding 1.5 · 2²³ leaves the
    /// rounded integer in the low bits of the float's pattern.
    @inline(__always) private static func code(_ v: Float) -> UInt16 {
        UInt16(truncatingIfNeeded: (min(max(v, 0), 65535) + 12_582_912).bitPattern)
    }

    /// SDR pictures' whole step: the map in place, then the pack through the gamma.
    public func finish(red: UnsafeMutablePointer<UInt16>, green: UnsafeMutablePointer<UInt16>,
                       blue: UnsafeMutablePointer<UInt16>, stride: Int, into bgra: UnsafeMutablePointer<UInt8>,
                       targetStride: Int, width: Int, height: Int) {
        adjust(red: red, green: green, blue: blue, stride: stride, width: width, height: height)
        pack(red: red, green: green, blue: blue, stride: stride, into: bgra, targetStride: targetStride,
             width: width, height: height)
    }

    /// The planes through the gamma into BGRA rows `targetStride` bytes apart (alpha 255).
    public func pack(red: UnsafePointer<UInt16>, green: UnsafePointer<UInt16>, blue: UnsafePointer<UInt16>,
                     stride: Int, into bgra: UnsafeMutablePointer<UInt8>, targetStride: Int, width: Int, height: Int) {
        for y in 0..<height {
            let r = red + y * stride, g = green + y * stride, b = blue + y * stride
            let p = bgra + y * targetStride
            for x in 0..<width {
                p[4 * x] = gammaTable[Int(b[x])]
                p[4 * x + 1] = gammaTable[Int(g[x])]
                p[4 * x + 2] = gammaTable[Int(r[x])]
                p[4 * x + 3] = 255
            }
        }
    }
}
