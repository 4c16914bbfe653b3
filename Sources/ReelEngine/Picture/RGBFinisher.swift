import Foundation

/// The CPU path's last step for pictures with a `ColourPlan`: 16-bit R′G′B′ at the shown size,
/// as zimg writes it, to the 8-bit BGRA the software surface draws, in one pass through the
/// plan's tables: linearise, tone-map (luma or hybrid, with crosstalk), map the gamut and
/// encode for the BT.1886 target. It computes `ColourPlan.signal(for:)` in single precision.
///
/// The input is planar (one plane each for R, G and B, full-range 16-bit words) because zimg
/// writes only planar pictures: packing them first would be one more pass over the picture.
/// Threading: immutable after `init` (the tables are only read), so one finisher may serve
/// several threads at once.
public final class RGBFinisher: @unchecked Sendable {
    // @unchecked: the table pointers are written once in `init`, freed in `deinit`, and only
    // read in between.
    public let plan: ColourPlan
    private let kernel: FinisherKernel

    /// The tables' sizes: one entry per 16-bit code; the curve in √Y; the encoding in √L.
    static let linearSize = 65536, curveSize = 1025, encodeSize = 4097

    public init(plan: ColourPlan) {
        self.plan = plan
        kernel = FinisherKernel(plan: plan)
    }

    deinit { kernel.free() }

    /// Finishes `width` × `height` pixels: `red`, `green` and `blue` rows `sourceStride`
    /// samples apart, BGRA rows `targetStride` bytes apart (alpha 255).
    public func finish(red: UnsafePointer<UInt16>, green: UnsafePointer<UInt16>, blue: UnsafePointer<UInt16>,
                       sourceStride: Int, into bgra: UnsafeMutablePointer<UInt8>, targetStride: Int,
                       width: Int, height: Int) {
        for y in 0..<height {
            let offset = y * sourceStride
            kernel.row(red + offset, green + offset, blue + offset, bgra + y * targetStride, width)
        }
    }
}

/// The constants and tables of one plan, in single precision, and the per-row loop: a plain
/// value so the loop sees them as constants, with no call through a protocol per pixel.
/// Threading: immutable; `free` once, by the owning finisher's `deinit`.
struct FinisherKernel {
    typealias Row = (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    let linear: UnsafeMutablePointer<Float>
    /// Pairs (f(Y), colour ratio), `curveSize` of them; nil when nothing is tone-mapped.
    let curve: UnsafeMutablePointer<Float>?
    let encode: UnsafeMutablePointer<UInt8>
    let hlg: Bool, hybrid: Bool
    let luma: SIMD3<Float>, hlgScale: Float, hlgExponent: Float
    let toXYZ: Row, fromXYZ: Row, crosstalk: Row, out: Row
    let outOffset: SIMD3<Float>
    let sourceMin: Float, sourceMax: Float, targetMin: Float, targetSpan: Float
    let rootLow: Float, rootScale: Float
    let targetMinPow: Float, targetMaxPow: Float

    init(plan: ColourPlan) {
        func copy<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: values.count)
            _ = UnsafeMutableBufferPointer(start: p, count: values.count).initialize(from: values)
            return p
        }
        func rows(_ m: Matrix3) -> Row { (SIMD3<Float>(m.rows.0), SIMD3<Float>(m.rows.1), SIMD3<Float>(m.rows.2)) }
        linear = copy(plan.linearisationTable(size: RGBFinisher.linearSize))
        let table = plan.curveTable(size: RGBFinisher.curveSize)
        curve = plan.mode == .none || table.isEmpty ? nil : copy(table.flatMap { [$0.x, $0.y] })
        encode = copy(plan.encodingTable(size: RGBFinisher.encodeSize))
        hlg = plan.linearisation == .hlg
        hybrid = plan.mode == .hybrid
        luma = SIMD3<Float>(plan.sourceGamut.luma)
        hlgScale = Float(plan.hlgScale)
        hlgExponent = Float(plan.hlgExponent)
        let constants = plan.shaderConstants
        toXYZ = rows(constants.toXYZ)
        fromXYZ = rows(constants.fromXYZ)
        crosstalk = rows(plan.crosstalkMatrix)
        out = rows(constants.outMatrix)
        outOffset = SIMD3<Float>(constants.outOffset)
        sourceMin = Float(plan.sourceMin)
        sourceMax = Float(plan.sourceMax)
        targetMin = Float(plan.targetMin)
        targetSpan = Float(1 - plan.targetMin)
        rootLow = Float(plan.sourceMin.squareRoot())
        rootScale = Float(Double(RGBFinisher.curveSize - 1) / (plan.sourceMax.squareRoot() - plan.sourceMin.squareRoot()))
        targetMinPow = Float(pow(plan.targetMin, 2.4))
        targetMaxPow = Float(pow(plan.targetMax, 2.4))
    }

    func free() {
        linear.deallocate()
        curve?.deallocate()
        encode.deallocate()
    }

    /// `m` · (r, g, b), on plain floats: Swift's SIMD3 and SIMD8 helpers (`clamped`,
    /// `pointwiseMin`) are not inlined and cost more than the arithmetic.
    @inline(__always) private static func apply(_ m: Row, _ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        (m.0.x * r + m.0.y * g + m.0.z * b, m.1.x * r + m.1.y * g + m.1.z * b, m.2.x * r + m.2.y * g + m.2.z * b)
    }

    @inline(__always) private static func clamp(_ v: Float, _ low: Float, _ high: Float) -> Float {
        min(max(v, low), high)
    }

    /// The curve at luminance `y`, interpolated: (f(y), the colour ratio).
    @inline(__always) private func lookUp(_ curve: UnsafeMutablePointer<Float>, _ y: Float) -> (Float, Float) {
        let position = (Self.clamp(y, sourceMin, sourceMax).squareRoot() - rootLow) * rootScale
        let i = min(Int(position), RGBFinisher.curveSize - 2)
        let t = position - Float(i)
        let a = curve + 2 * i
        return (a[0] + (a[2] - a[0]) * t, a[1] + (a[3] - a[1]) * t)
    }

    @inline(__always) private func code(_ light: Float) -> UInt8 {
        encode[Int(light.squareRoot() * Float(RGBFinisher.encodeSize - 1) + 0.5)]
    }

    func row(_ r: UnsafePointer<UInt16>, _ g: UnsafePointer<UInt16>, _ b: UnsafePointer<UInt16>,
             _ target: UnsafeMutablePointer<UInt8>, _ count: Int) {
        for x in 0..<count {
            var red = linear[Int(r[x])], green = linear[Int(g[x])], blue = linear[Int(b[x])]
            if hlg {
                let ys = Self.clamp(luma.x * red + luma.y * green + luma.z * blue, 0, 1)
                let gain = hlgScale * pow(ys, hlgExponent)
                red *= gain; green *= gain; blue *= gain
            }
            if let curve {
                red = Self.clamp(red, sourceMin, sourceMax)
                green = Self.clamp(green, sourceMin, sourceMax)
                blue = Self.clamp(blue, sourceMin, sourceMax)
                let (cx, cy, cz) = Self.apply(toXYZ, red, green, blue)
                let (mappedY, ratio) = lookUp(curve, cy)
                let mx = cx * ratio, mz = cz * ratio
                let my = mappedY - max(0.1 * mx, 0)
                var (lr, lg, lb) = Self.apply(fromXYZ, mx, my, mz)
                if hybrid {
                    let (xr, xg, xb) = Self.apply(crosstalk, red, green, blue)
                    var w: Float = 1
                    if my > 0 {
                        let c = pow(my, 2.4)
                        w = max(targetMinPow / c, c / targetMaxPow)
                    }
                    lr += (lookUp(curve, xr).0 - lr) * w
                    lg += (lookUp(curve, xg).0 - lg) * w
                    lb += (lookUp(curve, xb).0 - lb) * w
                }
                (red, green, blue) = (lr, lg, lb)
            }
            let (nr, ng, nb) = Self.apply(out, red, green, blue)
            let p = target + 4 * x
            p[0] = code(Self.clamp(nb + outOffset.z, 0, 1) * targetSpan + targetMin)
            p[1] = code(Self.clamp(ng + outOffset.y, 0, 1) * targetSpan + targetMin)
            p[2] = code(Self.clamp(nr + outOffset.x, 0, 1) * targetSpan + targetMin)
            p[3] = 255
        }
    }
}
