import Foundation

/// The plan as the drawing paths take it: 1D tables for the CPU path (built once per plan,
/// about a millisecond) and the constants of the GL shader. Both compute `signal(for:)`.
extension ColourPlan {
    /// Signal → light per channel, `size` entries over [0, 1] (65,536 for 16-bit samples).
    /// PQ and BT.1886 give light relative to reference white; HLG gives the scene light of the
    /// lifted signal, since its OOTF needs all three channels (`hlgScale`, `hlgExponent`).
    public func linearisationTable(size: Int = 65536) -> [Float] {
        let last = Double(max(size - 1, 1))
        let beta = HybridLogGamma.blackLift(peak: peak, black: black)
        let display = BT1886(peak: peak, black: black)
        return (0..<size).map { i in
            let v = Double(i) / last
            switch linearisation {
            case .pq: return Float(PerceptualQuantizer.nits(signal: v) / Self.referenceWhite)
            case .hlg: return Float(HybridLogGamma.scene(signal: (1 - beta) * v + beta))
            case .bt1886: return Float(display.light(signal: v) / Self.referenceWhite)
            }
        }
    }

    /// HLG's OOTF after the table: L = E · `hlgScale` · Ys^`hlgExponent`.
    public var hlgScale: Double { peak / Self.referenceWhite }
    public var hlgExponent: Double { HybridLogGamma.systemGamma(peak: peak) - 1 }

    /// The tone curve sampled evenly in √Y over [√sourceMin, √sourceMax] (dense in the
    /// shadows, where the eye is): each entry the mapped luminance f(Y) and the factor X and
    /// Z are scaled by, (f(Y)/max(Y, targetMin))^(1+ε). Interpolate linearly between entries;
    /// 1,025 of them stay within 0.1 code of the exact curve. Empty when nothing is mapped.
    public func curveTable(size: Int = 1025) -> [SIMD2<Float>] {
        guard let curve, size > 1 else { return [] }
        let low = sourceMin.squareRoot(), high = sourceMax.squareRoot()
        return (0..<size).map { i in
            let root = low + (high - low) * Double(i) / Double(size - 1)
            let y = root * root
            let mapped = curve(y)
            return SIMD2(Float(mapped), Float(pow(mapped / max(y, targetMin), 1 + Self.ratioExponent)))
        }
    }

    /// Where luminance `y` falls in `curveTable`, as a fractional index in [0, size − 1].
    public func curveTablePosition(_ y: Double, size: Int = 1025) -> Double {
        let low = sourceMin.squareRoot(), high = sourceMax.squareRoot()
        let root = min(max(y, sourceMin), sourceMax).squareRoot()
        return (root - low) / (high - low) * Double(size - 1)
    }

    /// Light → 8-bit target code, `size` entries evenly in √L over [0, 1].
    public func encodingTable(size: Int = 4097) -> [UInt8] {
        let last = Double(max(size - 1, 1))
        return (0..<size).map { i in
            let root = Double(i) / last
            let v = Self.target.signal(light: root * root)
            return UInt8((min(max(v, 0), 1) * 255).rounded())
        }
    }

    /// What the shader needs beyond the tables. Threading: a value type.
    public struct ShaderConstants: Sendable, Equatable {
        /// Crosstalk, then the source's RGB to relative XYZ (`toRelativeXYZ` · crosstalk).
        public let toXYZ: Matrix3
        /// Relative XYZ back to the source's RGB.
        public let fromXYZ: Matrix3
        /// Undoes the crosstalk, maps the gamut and normalises between the target's black and
        /// white in one affine map: n = clamp(outMatrix · L + outOffset, 0, 1), then
        /// L = n · (1 − targetMin) + targetMin.
        public let outMatrix: Matrix3
        public let outOffset: SIMD3<Double>
        public let sourceMin: Double
        public let sourceMax: Double
        public let targetMin: Double
        public let targetMax: Double
        public let ratioExponent: Double
        /// The target's BT.1886 lift: V = (L^(1/2.4) − lift)/(1 − lift).
        public let targetLift: Double
    }

    public var shaderConstants: ShaderConstants {
        let span = 1 - targetMin
        let gamut = gamutMap ?? .identity
        let undo = mode == .none ? Matrix3.identity : crosstalkMatrix.inverse
        let out = gamut * undo * (1 / span)
        let offset = gamut * SIMD3(repeating: -targetMin / span)
        return ShaderConstants(toXYZ: toRelativeXYZ * crosstalkMatrix, fromXYZ: toRelativeXYZ.inverse,
                               outMatrix: out, outOffset: offset, sourceMin: sourceMin, sourceMax: sourceMax,
                               targetMin: targetMin, targetMax: targetMax, ratioExponent: Self.ratioExponent,
                               targetLift: Self.target.lift)
    }
}
