import Foundation

/// The CPU path's last step for pictures with a `ColourPlan`: 16-bit R′G′B′ at the shown size,
/// as zimg writes it, to the 8-bit BGRA the software surface draws, in one pass through tables
/// built from the plan: linearise, tone-map (luma or hybrid, with crosstalk), map the gamut
/// and encode for the BT.1886 target. It computes `ColourPlan.signal(for:)` in single
/// precision, within a code of it.
///
/// The input is planar (one plane each for R, G and B, full-range 16-bit words) because zimg
/// writes only planar pictures: packing them first would be one more pass over the picture.
/// Threading: immutable after `init` (the tables are only read), so one finisher may serve
/// several threads at once.
public final class RGBFinisher: @unchecked Sendable {
    // @unchecked: the table pointers are written once in `init`, freed in `deinit`, and only
    // read in between.
    public let plan: ColourPlan
    /// The equalizer's display gamma g: the encoded signal becomes V^(1/g) (1 leaves it).
    public let gammaFactor: Double
    private let kernel: FinisherKernel

    /// One linearisation entry per 16-bit code.
    package static let linearSize = 65536

    public init(plan: ColourPlan, gammaFactor: Double = 1) {
        self.plan = plan
        self.gammaFactor = gammaFactor
        kernel = FinisherKernel(plan: plan, gammaFactor: gammaFactor)
    }

    deinit { kernel.free() }

    /// Finishes `width` × `height` pixels: `red`, `green` and `blue` rows `sourceStride`
    /// samples apart, BGRA rows `targetStride` bytes apart (alpha 255).
    public func finish(red: UnsafePointer<UInt16>, green: UnsafePointer<UInt16>, blue: UnsafePointer<UInt16>,
                       sourceStride: Int, into bgra: UnsafeMutablePointer<UInt8>, targetStride: Int,
                       width: Int, height: Int) {
        // Seven rows of floats for the passes over a row, once per picture.
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 7 * max(width, 1))
        defer { scratch.deallocate() }
        for y in 0..<height {
            let offset = y * sourceStride
            kernel.row(red + offset, green + offset, blue + offset, bgra + y * targetStride, width, scratch)
        }
    }
}

/// The constants and tables of one plan, in single precision, and the per-row loop: a plain
/// value so the loop sees them as constants, with no call through a protocol per pixel.
/// Threading: immutable; `free` once, by the owning finisher's `deinit`.
package struct FinisherKernel {
    package typealias Row = (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    package let linear: UnsafeMutablePointer<Float>
    /// Pairs (f(Y), colour ratio) at Y's float bits from `curveBase` on, as `encode` is read
    /// (1,024 a doubling of Y), interpolated by the lower mantissa bits: an interpolated √Y
    /// table, as the shader samples, cost a square root per read, four reads a pixel in hybrid
    /// mode. Nil when nothing is tone-mapped.
    package let curve: UnsafeMutablePointer<Float>?
    package let curveBase: UInt32
    package let encode: UnsafeMutablePointer<UInt8>
    /// The encoding's first entry: the target's black's float bits, shifted.
    package let encodeBase: UInt32
    package static let encodeShift: UInt32 = 13
    package let luma: SIMD3<Float>
    /// Powers read by their base's float bits, as `encode` is (steps of 0.1 %, a base below
    /// 2^-30 read as 2^-30): HLG's OOTF gain, hlgScale · Ys^(γ−1), and the hybrid mode's weight
    /// of the per-channel curve. A powf each cost more than the rest of a pixel's arithmetic.
    package let hlgGain: UnsafeMutablePointer<Float>?
    package let hybridWeight: UnsafeMutablePointer<Float>?
    package static let powerFloor = Float(0x1p-30)
    package static let powerBase = powerFloor.bitPattern >> encodeShift
    package let toXYZ: Row, fromXYZ: Row, crosstalk: Row, out: Row
    /// `out` · `fromXYZ`: in luma mode nothing happens between the two, so one map does both.
    package let fromXYZOut: Row
    package let outOffset: SIMD3<Float>
    package let sourceMin: Float, sourceMax: Float, targetMin: Float, targetSpan: Float

    package init(plan: ColourPlan, gammaFactor: Double = 1) {
        func copy<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: values.count)
            _ = UnsafeMutableBufferPointer(start: p, count: values.count).initialize(from: values)
            return p
        }
        func rows(_ m: Matrix3) -> Row { (SIMD3<Float>(m.rows.0), SIMD3<Float>(m.rows.1), SIMD3<Float>(m.rows.2)) }
        linear = copy(plan.linearisationTable(size: RGBFinisher.linearSize))
        let (first, last) = (Float(plan.sourceMin).bitPattern >> Self.encodeShift,
                             Float(plan.sourceMax).bitPattern >> Self.encodeShift)
        curveBase = first
        if let exact = plan.curve, plan.mode != .none {
            let exponent = 1 + ColourPlan.ratioExponent
            curve = copy((first...last + 1).flatMap { index -> [Float] in
                let y = Double(Float(bitPattern: index << Self.encodeShift))
                let mapped = exact(y)
                return [Float(mapped), Float(pow(mapped / max(min(max(y, plan.sourceMin), plan.sourceMax), plan.targetMin), exponent))]
            })
        } else {
            curve = nil
        }
        // Indexed by the light's float bits, top 10 mantissa bits and the exponent (steps of
        // 0.1 % of L, under 0.11 of a code): no square root per channel, as a table in √L
        // (ColourPlan.encodingTable) needs, and the index is integer arithmetic. One entry
        // past 1.0, in case n · span + black rounds up.
        let (base, top) = (Float(plan.targetMin).bitPattern >> Self.encodeShift, Float(1).bitPattern >> Self.encodeShift)
        encodeBase = base
        encode = copy((base...top + 1).map { index -> UInt8 in
            let middle = Double(Float(bitPattern: index << Self.encodeShift | 1 << (Self.encodeShift - 1)))
            var v = ColourPlan.target.signal(light: min(middle, 1))
            if gammaFactor != 1 { v = pow(min(max(v, 0), 1), 1 / gammaFactor) }
            return UInt8((min(max(v, 0), 1) * 255).rounded())
        })
        luma = SIMD3<Float>(plan.sourceGamut.luma)
        func powers(_ f: (Double) -> Double) -> UnsafeMutablePointer<Float> {
            copy((Self.powerBase...(Float(1).bitPattern >> Self.encodeShift)).map { index in
                Float(f(Double(Float(bitPattern: index << Self.encodeShift | 1 << (Self.encodeShift - 1)))))
            })
        }
        hlgGain = plan.linearisation == .hlg ? powers { plan.hlgScale * pow($0, plan.hlgExponent) } : nil
        let (minPow, maxPow) = (pow(plan.targetMin, 2.4), pow(plan.targetMax, 2.4))
        hybridWeight = plan.mode == .hybrid ? powers { max(minPow / pow($0, 2.4), pow($0, 2.4) / maxPow) } : nil
        let constants = plan.shaderConstants
        toXYZ = rows(constants.toXYZ)
        fromXYZ = rows(constants.fromXYZ)
        crosstalk = rows(plan.crosstalkMatrix)
        out = rows(constants.outMatrix)
        fromXYZOut = rows(constants.outMatrix * constants.fromXYZ)
        outOffset = SIMD3<Float>(constants.outOffset)
        sourceMin = Float(plan.sourceMin)
        sourceMax = Float(plan.sourceMax)
        targetMin = Float(plan.targetMin)
        targetSpan = Float(1 - plan.targetMin)
    }

    package func free() {
        linear.deallocate()
        curve?.deallocate()
        encode.deallocate()
        hlgGain?.deallocate()
        hybridWeight?.deallocate()
    }

    /// Where `v` in [0, 1] falls in a table of `powers`.
    @inline(__always) private static func powerIndex(_ v: Float) -> Int {
        Int((max(v, powerFloor).bitPattern >> encodeShift) &- powerBase)
    }

    /// `m` · (r, g, b), on plain floats: Swift's SIMD3 and SIMD8 helpers (`clamped`,
    /// `pointwiseMin`) are not inlined and cost more than the arithmetic.
    @inline(__always) private static func apply(_ m: Row, _ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        (m.0.x * r + m.0.y * g + m.0.z * b, m.1.x * r + m.1.y * g + m.1.z * b, m.2.x * r + m.2.y * g + m.2.z * b)
    }

    @inline(__always) private static func clamp(_ v: Float, _ low: Float, _ high: Float) -> Float {
        min(max(v, low), high)
    }

    /// The curve at luminance `y`: (f(y), the colour ratio).
    @inline(__always) private func lookUp(_ curve: UnsafeMutablePointer<Float>, _ y: Float) -> (Float, Float) {
        let bits = Self.clamp(y, sourceMin, sourceMax).bitPattern
        let a = curve + 2 * Int((bits >> Self.encodeShift) &- curveBase)
        let t = Float(bits & (1 << Self.encodeShift - 1)) * (1 / Float(1 << Self.encodeShift))
        return (a[0] + (a[2] - a[0]) * t, a[1] + (a[3] - a[1]) * t)
    }

    /// One row, in passes: the table reads scalar, the arithmetic in loops over whole rows
    /// that the compiler vectorises (per pixel, the same steps ran 4-6 times slower).
    package func row(_ r: UnsafePointer<UInt16>, _ g: UnsafePointer<UInt16>, _ b: UnsafePointer<UInt16>,
             _ target: UnsafeMutablePointer<UInt8>, _ count: Int, _ scratch: UnsafeMutablePointer<Float>) {
        let red = scratch, green = scratch + count, blue = scratch + 2 * count
        let cx = scratch + 3 * count, cy = scratch + 4 * count, cz = scratch + 5 * count
        let ratio = scratch + 6 * count
        for x in 0..<count {
            red[x] = linear[Int(r[x])]; green[x] = linear[Int(g[x])]; blue[x] = linear[Int(b[x])]
        }
        if let hlgGain {
            let (lr, lg, lb) = (luma.x, luma.y, luma.z)
            for x in 0..<count {
                let gain = hlgGain[Self.powerIndex(Self.clamp(lr * red[x] + lg * green[x] + lb * blue[x], 0, 1))]
                red[x] *= gain; green[x] *= gain; blue[x] *= gain
            }
        }
        if let curve, hybridWeight == nil {
            lumaToneMap(count, curve, red, green, blue, cx, cy, cz, ratio)
        } else {
            if let curve { toneMap(count, curve, red, green, blue, cx, cy, cz, ratio) }
            normalise(count, red, green, blue)
        }
        let (base, shift) = (encodeBase, Self.encodeShift)
        for x in 0..<count {
            let p = target + 4 * x
            p[0] = encode[Int((blue[x].bitPattern >> shift) &- base)]
            p[1] = encode[Int((green[x].bitPattern >> shift) &- base)]
            p[2] = encode[Int((red[x].bitPattern >> shift) &- base)]
            p[3] = 255
        }
    }

    /// Light to the target's normalised light, in place: the out map (crosstalk undone, the
    /// gamut mapped), clipped, lifted to the target's black.
    @inline(__always) private func normalise(_ count: Int, _ red: UnsafeMutablePointer<Float>,
                                             _ green: UnsafeMutablePointer<Float>, _ blue: UnsafeMutablePointer<Float>) {
        let (m, o, low, span) = (out, outOffset, targetMin, targetSpan)
        for x in 0..<count {
            let (nr, ng, nb) = Self.apply(m, red[x], green[x], blue[x])
            red[x] = Self.clamp(nr + o.x, 0, 1) * span + low
            green[x] = Self.clamp(ng + o.y, 0, 1) * span + low
            blue[x] = Self.clamp(nb + o.z, 0, 1) * span + low
        }
    }

    /// Luma mode's tone curve and the out map together, on a row of light, in place: back from
    /// XYZ and out in one matrix, and one pass fewer over the row (`cx`, `cy`, `cz` and `ratio`
    /// are scratch). The same arithmetic as `toneMap` then `normalise`, regrouped.
    @inline(__always) private func lumaToneMap(_ count: Int, _ curve: UnsafeMutablePointer<Float>,
                                               _ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>,
                                               _ blue: UnsafeMutablePointer<Float>, _ cx: UnsafeMutablePointer<Float>,
                                               _ cy: UnsafeMutablePointer<Float>, _ cz: UnsafeMutablePointer<Float>,
                                               _ ratio: UnsafeMutablePointer<Float>) {
        curveOnLuma(count, curve, red, green, blue, cx, cy, cz, ratio)
        let (m, o, black, span) = (fromXYZOut, outOffset, targetMin, targetSpan)
        for x in 0..<count {
            let mx = cx[x] * ratio[x], mz = cz[x] * ratio[x]
            let my = cy[x] - max(0.1 * mx, 0)
            let (nr, ng, nb) = Self.apply(m, mx, my, mz)
            red[x] = Self.clamp(nr + o.x, 0, 1) * span + black
            green[x] = Self.clamp(ng + o.y, 0, 1) * span + black
            blue[x] = Self.clamp(nb + o.z, 0, 1) * span + black
        }
    }

    /// The first steps of either mode, on a row of light: the light clipped to the curve's
    /// domain (kept in place, for the hybrid mode's per-channel curve), taken to XYZ (`cx`,
    /// `cy`, `cz`), and Y through the curve, with the colour ratio beside it (`ratio`).
    @inline(__always) private func curveOnLuma(_ count: Int, _ curve: UnsafeMutablePointer<Float>,
                                               _ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>,
                                               _ blue: UnsafeMutablePointer<Float>, _ cx: UnsafeMutablePointer<Float>,
                                               _ cy: UnsafeMutablePointer<Float>, _ cz: UnsafeMutablePointer<Float>,
                                               _ ratio: UnsafeMutablePointer<Float>) {
        let (low, high, forward) = (sourceMin, sourceMax, toXYZ)
        for x in 0..<count {
            let r = Self.clamp(red[x], low, high), g = Self.clamp(green[x], low, high)
            let b = Self.clamp(blue[x], low, high)
            red[x] = r; green[x] = g; blue[x] = b
            (cx[x], cy[x], cz[x]) = Self.apply(forward, r, g, b)
        }
        for x in 0..<count { (cy[x], ratio[x]) = lookUp(curve, cy[x]) }
    }

    /// The hybrid mode's tone curve on a row of light, in place (luma mode has
    /// `lumaToneMap`); `cx`, `cy`, `cz` and `ratio` are scratch.
    @inline(__always) private func toneMap(_ count: Int, _ curve: UnsafeMutablePointer<Float>,
                                           _ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>,
                                           _ blue: UnsafeMutablePointer<Float>, _ cx: UnsafeMutablePointer<Float>,
                                           _ cy: UnsafeMutablePointer<Float>, _ cz: UnsafeMutablePointer<Float>,
                                           _ ratio: UnsafeMutablePointer<Float>) {
        curveOnLuma(count, curve, red, green, blue, cx, cy, cz, ratio)
        let back = fromXYZ
        for x in 0..<count {
            let mx = cx[x] * ratio[x], mz = cz[x] * ratio[x]
            let my = cy[x] - max(0.1 * mx, 0)
            (cx[x], cy[x], cz[x]) = Self.apply(back, mx, my, mz)
            ratio[x] = my
        }
        if let hybridWeight {
            let k = crosstalk
            for x in 0..<count {
                let (xr, xg, xb) = Self.apply(k, red[x], green[x], blue[x])
                let my = ratio[x]
                let w = my > 0 ? hybridWeight[Self.powerIndex(min(my, 1))] : 1
                cx[x] += (lookUp(curve, xr).0 - cx[x]) * w
                cy[x] += (lookUp(curve, xg).0 - cy[x]) * w
                cz[x] += (lookUp(curve, xb).0 - cz[x]) * w
            }
        }
        for x in 0..<count { red[x] = cx[x]; green[x] = cy[x]; blue[x] = cz[x] }
    }
}
