import Foundation

/// The BT.2390 EETF as libplacebo 4.208 computes it (`tone_mapping.c`, `bt2390`): light from
/// the source's range squeezed into the target's, worked on PQ signals normalised to the
/// source's range. Below the knee it is the identity; above it a Hermite spline bends the rest
/// up to the target's peak, so highlights are compressed, never clipped. A black-point term
/// lifts the bottom to the target's black.
///
/// libplacebo's knee offset is 1.0 (`ks = 2·maxL − 1`), where BT.2390 itself and mpv 0.35 use
/// 0.5 (`1.5·maxL − 0.5`): the oracle is libplacebo, and 0.5 puts Reel 10–20 dB from it.
/// All light is relative to reference white (203 cd/m²). Threading: a value type.
public struct ToneCurve: Sendable, Equatable {
    public let sourceMin: Double
    public let sourceMax: Double
    public let targetMin: Double
    public let targetMax: Double
    /// The PQ signals of the four levels.
    package let inMin, inMax, outMin, outMax: Double
    /// The target's black and peak in the normalised PQ domain (0 = source black, 1 = source peak).
    public let minL: Double
    public let maxL: Double
    /// Where the spline starts, in the normalised PQ domain.
    public let kneeStart: Double
    package let blackPower: Double
    package let gain: Double

    public init(sourceMin: Double, sourceMax: Double, targetMin: Double, targetMax: Double) {
        self.sourceMin = sourceMin
        self.sourceMax = sourceMax
        self.targetMin = targetMin
        self.targetMax = targetMax
        func pq(_ relative: Double) -> Double { PerceptualQuantizer.signal(nits: relative * ColourPlan.referenceWhite) }
        inMin = pq(sourceMin); inMax = pq(sourceMax); outMin = pq(targetMin); outMax = pq(targetMax)
        let span = inMax - inMin
        minL = (outMin - inMin) / span
        maxL = (outMax - inMin) / span
        kneeStart = 2 * maxL - 1
        blackPower = minL > 0 ? min(1 / minL, 4) : 4
        gain = maxL < 1 ? 1 / (1 + minL / maxL * pow(1 - maxL, blackPower)) : 1
    }

    /// The curve on the normalised PQ signal `u` (0 = source black, 1 = source peak).
    public func normalised(_ u: Double) -> Double {
        var x = u
        if kneeStart < 1 && u >= kneeStart {
            let t = (u - kneeStart) / (1 - kneeStart)
            let t2 = t * t, t3 = t2 * t
            x = (2 * t3 - 3 * t2 + 1) * kneeStart + (t3 - 2 * t2 + t) * (1 - kneeStart) + (-2 * t3 + 3 * t2) * maxL
        }
        // On the knee's output, as libplacebo does: the source's peak gets the lift too.
        if x < 1 {
            let lifted = x + minL * pow(max(1 - x, 0), blackPower)
            x = gain * (lifted - minL) + minL
        }
        return x
    }

    /// The light shown for source light `x` (both relative to reference white).
    public func callAsFunction(_ x: Double) -> Double {
        let clamped = min(max(x, sourceMin), sourceMax)
        let u = (PerceptualQuantizer.signal(nits: clamped * ColourPlan.referenceWhite) - inMin) / (inMax - inMin)
        let signal = min(max(normalised(u) * (inMax - inMin) + inMin, outMin), outMax)
        return PerceptualQuantizer.nits(signal: signal) / ColourPlan.referenceWhite
    }
}
