import Foundation

/// SMPTE ST 2084 (BT.2100 PQ): code values in [0, 1] to absolute light up to 10,000 cd/m².
/// Threading: pure functions.
public enum PerceptualQuantizer {
    package static let m1 = 2610.0 / 16384
    package static let m2 = 2523.0 / 32
    package static let c1 = 3424.0 / 4096
    package static let c2 = 2413.0 / 128
    package static let c3 = 2392.0 / 128
    /// The curve's top, in cd/m².
    public static let peak = 10000.0

    /// The signal that stands for `nits` cd/m² (the inverse EOTF).
    public static func signal(nits: Double) -> Double {
        let y = pow(min(max(nits, 0), peak) / peak, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// The light a signal stands for, in cd/m² (the EOTF).
    public static func nits(signal: Double) -> Double {
        let e = pow(max(signal, 0), 1 / m2)
        return peak * pow(max(e - c1, 0) / (c2 - c3 * e), 1 / m1)
    }
}

/// BT.2100 hybrid log-gamma: the OETF from scene light, its inverse, and the OOTF that turns
/// scene light into display light for a display of a given peak (with libplacebo's lift of the
/// signal for the display's black). Threading: pure functions.
public enum HybridLogGamma {
    package static let a = 0.17883277
    package static let b = 0.28466892
    package static let c = 0.55991073
    /// The peak the system gamma is nominal for (BT.2100's reference display), in cd/m².
    public static let nominalPeak = 1000.0

    /// Scene light E in [0, 1] to the signal.
    public static func signal(scene e: Double) -> Double {
        let e = max(e, 0)
        return e <= 1.0 / 12 ? (3 * e).squareRoot() : a * log(12 * e - b) + c
    }

    /// The signal to scene light E in [0, 1] (the inverse OETF).
    public static func scene(signal v: Double) -> Double {
        let v = max(v, 0)
        return v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12
    }

    /// BT.2100's system gamma for a display of `peak` cd/m² (extended formula, never below 1,
    /// as libplacebo does: no inverse tone mapping for dim displays).
    public static func systemGamma(peak: Double) -> Double {
        max(1, 1.2 + 0.42 * log10(peak / nominalPeak))
    }

    /// How far the signal is lifted so that code 0 shows the display's black (BT.2100's β).
    public static func blackLift(peak: Double, black: Double) -> Double {
        guard peak > 0, black > 0 else { return 0 }
        return (3 * pow(black / peak, 1 / systemGamma(peak: peak))).squareRoot()
    }

    /// Display light in cd/m² of an R′G′B′ signal on a display of `peak` and `black` cd/m²;
    /// `luma` weighs the scene's R, G and B (the primaries' Y row).
    public static func displayLight(_ rgb: SIMD3<Double>, peak: Double, black: Double,
                                    luma: SIMD3<Double>) -> SIMD3<Double> {
        let beta = blackLift(peak: peak, black: black)
        let lifted = rgb * (1 - beta) + SIMD3(repeating: beta)
        let e = SIMD3(scene(signal: lifted.x), scene(signal: lifted.y), scene(signal: lifted.z))
        let ys = max((e * luma).sum(), 0)
        return e * (peak * pow(ys, systemGamma(peak: peak) - 1))
    }
}

/// BT.1886: how an SDR display shows a camera signal: a 2.4 power between its black and peak.
/// Threading: a value type.
public struct BT1886: Sendable, Equatable {
    public let peak: Double
    public let black: Double
    /// The signal's offset that puts code 0 at the display's black.
    public let lift: Double

    public init(peak: Double, black: Double) {
        self.peak = peak
        self.black = black
        lift = peak > 0 ? pow(max(black, 0) / peak, 1 / 2.4) : 0
    }

    /// The light of signal `v`, in the unit `peak` and `black` are in.
    public func light(signal v: Double) -> Double {
        peak * pow(max((1 - lift) * v + lift, 0), 2.4)
    }

    /// The signal that shows `light` (below black, negative; callers clamp).
    public func signal(light: Double) -> Double {
        (pow(max(light, 0) / peak, 1 / 2.4) - lift) / (1 - lift)
    }
}
