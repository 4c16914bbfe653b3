import Foundation

/// The plan's steps on one pixel, in doubles: the reference the CPU tables and the GL shader
/// are checked against. Input is the decoded R′G′B′ (after the YUV matrix, in [0, 1]); output
/// the BT.1886 signal for the target, in [0, 1] before quantising.
extension ColourPlan {
    /// The whole chain: linearise, tone-map, map the gamut, encode.
    public func signal(for rgb: SIMD3<Double>) -> SIMD3<Double> {
        encode(gamutMapped(toneMapped(light(of: rgb))))
    }

    /// Linear light relative to reference white, in the source's primaries.
    public func light(of rgb: SIMD3<Double>) -> SIMD3<Double> {
        let v = rgb.clamped(lowerBound: .zero, upperBound: .one)
        switch linearisation {
        case .pq:
            return SIMD3(PerceptualQuantizer.nits(signal: v.x), PerceptualQuantizer.nits(signal: v.y),
                         PerceptualQuantizer.nits(signal: v.z)) / Self.referenceWhite
        case .hlg:
            return HybridLogGamma.displayLight(v, peak: peak, black: black, luma: sourceGamut.luma) / Self.referenceWhite
        case .bt1886:
            let display = BT1886(peak: peak, black: black)
            return SIMD3(display.light(signal: v.x), display.light(signal: v.y), display.light(signal: v.z))
                / Self.referenceWhite
        }
    }

    /// Crosstalk: a little of each channel into the others, so saturated highlights desaturate
    /// as they are compressed instead of skewing hue (libplacebo's `tone_mapping_crosstalk`).
    public var crosstalkMatrix: Matrix3 {
        let k = Self.crosstalk
        return Matrix3([1 - 2 * k, k, k], [k, 1 - 2 * k, k], [k, k, 1 - 2 * k])
    }

    /// The source's RGB to XYZ with X and Z taken relative to Y (X/Xw − Y, Y, Z/Zw − Y), so a
    /// grey has X = Z = 0 and the curve scales the colour, not the grey.
    public var toRelativeXYZ: Matrix3 {
        let m = sourceGamut.rgbToXYZ
        let w = Gamut.xyz(sourceGamut.white)
        return Matrix3(m.rows.0 / w.x - m.rows.1, m.rows.1, m.rows.2 / w.z - m.rows.1)
    }

    /// Light after the tone curve (unchanged when the source fits the target).
    public func toneMapped(_ light: SIMD3<Double>) -> SIMD3<Double> {
        guard let curve, mode != .none else { return light }
        let clamped = light.clamped(lowerBound: SIMD3(repeating: sourceMin), upperBound: SIMD3(repeating: sourceMax))
        let crossed = crosstalkMatrix * clamped
        let toXYZ = toRelativeXYZ
        let xyz = toXYZ * crossed
        let mappedY = curve(xyz.y)
        let ratio = pow(mappedY / max(xyz.y, targetMin), 1 + Self.ratioExponent)
        let x = xyz.x * ratio, z = xyz.z * ratio
        // Bright reds lose a little luminance (libplacebo's correction for X pulling Y up).
        let y = mappedY - max(0.1 * x, 0)
        var mapped = toXYZ.inverse * SIMD3(x, y, z)
        if mode == .hybrid {
            let perChannel = SIMD3(curve(crossed.x), curve(crossed.y), curve(crossed.z))
            mapped += (perChannel - mapped) * hybridWeight(luminance: y)
        }
        return crosstalkMatrix.inverse * mapped
    }

    /// How much of the per-channel curve the hybrid mode takes at this luminance: all of it at
    /// the target's black and peak, next to none in the mid-tones.
    public func hybridWeight(luminance y: Double) -> Double {
        guard y > 0 else { return 1 }
        let c = pow(y, 2.4)
        return max(pow(targetMin, 2.4) / c, c / pow(targetMax, 2.4))
    }

    /// BT.2020 (or P3) light in BT.709's primaries, clipped to what the target shows, between
    /// its black and white (libplacebo's `gamut_mode=clip`, relative intent).
    public func gamutMapped(_ light: SIMD3<Double>) -> SIMD3<Double> {
        guard let gamutMap else { return light }
        let span = 1 - targetMin
        let n = (gamutMap * ((light - SIMD3(repeating: targetMin)) / span)).clamped(lowerBound: .zero, upperBound: .one)
        return n * span + SIMD3(repeating: targetMin)
    }

    /// The target's signal for light: BT.1886 at 203 cd/m², 1000:1, clamped to [0, 1].
    public func encode(_ light: SIMD3<Double>) -> SIMD3<Double> {
        let display = Self.target
        return SIMD3(display.signal(light: light.x), display.signal(light: light.y), display.signal(light: light.z))
            .clamped(lowerBound: .zero, upperBound: .one)
    }

    /// The SDR display drawn for, in relative light.
    public static let target = BT1886(peak: 1, black: targetBlack)
}
