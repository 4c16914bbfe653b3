import Foundation
import ReelEngine

/// The fragment shader's colour steps for pictures with a `ColourPlan` (HDR, BT.2020): the
/// same chain as the CPU path's `RGBFinisher` (`ColourPlan.signal(for:)`): linearise (PQ, HLG
/// with its OOTF, BT.1886), tone-map (luma or hybrid, with crosstalk, the curve read from a
/// `ToneCurveTexture`), map the gamut and encode for the BT.1886 target. Which steps a program
/// has is chosen by `#define` (`Variant`); the numbers come as uniforms (`Uniforms`).
/// SDR BT.709 has no plan and keeps the plain program. Threading: value types and constants.
enum ColourShader {
    /// Which colour steps a program is compiled with. Threading: a value type.
    struct Variant: Hashable, Sendable {
        let linearisation: ColourPlan.Linearisation
        let mode: ColourPlan.Mode

        init(_ plan: ColourPlan) {
            linearisation = plan.linearisation
            mode = plan.mode
        }

        /// The `#define` lines the fragment shader is compiled with.
        var defines: String {
            var lines = ["#define COLOUR"]
            switch linearisation {
            case .pq: lines.append("#define COLOUR_PQ")
            case .hlg: lines.append("#define COLOUR_HLG")
            case .bt1886: lines.append("#define COLOUR_BT1886")
            }
            switch mode {
            case .none: break
            case .luma: lines.append("#define TONE_MAP")
            case .hybrid: lines += ["#define TONE_MAP", "#define TONE_HYBRID"]
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// The uniforms' values for one plan, in GL's layouts (matrices column-major).
    /// Threading: a value type.
    struct Uniforms: Equatable, Sendable {
        /// HLG: (β, peak/203, γ − 1); BT.1886: (lift, peak/203, 0); PQ: unused.
        let linearisation: SIMD3<Float>
        /// HLG's scene luminance weights (the source primaries' Y row).
        let sourceLuma: SIMD3<Float>
        /// The curve's domain: (sourceMin, sourceMax) and their square roots (the table's ends).
        let sourceRange: SIMD2<Float>
        let curveDomain: SIMD2<Float>
        /// (targetMin^2.4, targetMax^2.4): the hybrid weight's ends.
        let hybridEnds: SIMD2<Float>
        let toXYZ: [Float]
        let fromXYZ: [Float]
        let crosstalk: [Float]
        let outMatrix: [Float]
        let outOffset: SIMD3<Float>
        let targetMin: Float
        let targetLift: Float

        init(_ plan: ColourPlan) {
            let constants = plan.shaderConstants
            switch plan.linearisation {
            case .pq: linearisation = .zero
            case .hlg:
                linearisation = SIMD3(Float(HybridLogGamma.blackLift(peak: plan.peak, black: plan.black)),
                                      Float(plan.hlgScale), Float(plan.hlgExponent))
            case .bt1886:
                let display = BT1886(peak: plan.peak, black: plan.black)
                linearisation = SIMD3(Float(display.lift), Float(plan.peak / ColourPlan.referenceWhite), 0)
            }
            sourceLuma = SIMD3<Float>(plan.sourceGamut.luma)
            sourceRange = SIMD2(Float(plan.sourceMin), Float(plan.sourceMax))
            curveDomain = SIMD2(Float(plan.sourceMin.squareRoot()), Float(plan.sourceMax.squareRoot()))
            hybridEnds = SIMD2(Float(pow(plan.targetMin, 2.4)), Float(pow(plan.targetMax, 2.4)))
            toXYZ = constants.toXYZ.columnMajor
            fromXYZ = constants.fromXYZ.columnMajor
            crosstalk = plan.crosstalkMatrix.columnMajor
            outMatrix = constants.outMatrix.columnMajor
            outOffset = SIMD3<Float>(constants.outOffset)
            targetMin = Float(constants.targetMin)
            targetLift = Float(constants.targetLift)
        }
    }

    /// The texture unit the tone curve is bound to (the planes take 0-2).
    static let curveUnit = 3

    /// GLSL: `finish(rgb)`, R′G′B′ in [0, 1] to the target's signal, compiled under `COLOUR`.
    /// The curve is sampled by hand between texel centres (texelFetch and mix): float textures
    /// need no filtering support that way, on GL or GLES, and keep full precision.
    static let functions = """
    uniform sampler2D toneCurve;
    uniform vec3 linearisation;
    uniform vec3 sourceLuma;
    uniform vec2 sourceRange;
    uniform vec2 curveDomain;
    uniform vec2 hybridEnds;
    uniform mat3 toXYZ;
    uniform mat3 fromXYZ;
    uniform mat3 crosstalk;
    uniform mat3 outMatrix;
    uniform vec3 outOffset;
    uniform float targetMin;
    uniform float targetLift;

    vec3 linearise(vec3 v) {
    #if defined(COLOUR_PQ)
        vec3 e = pow(v, vec3(32.0 / 2523.0));
        return pow(max(e - 3424.0 / 4096.0, 0.0) / (2413.0 / 128.0 - (2392.0 / 128.0) * e), vec3(16384.0 / 2610.0))
            * (10000.0 / 203.0);
    #elif defined(COLOUR_HLG)
        vec3 s = v * (1.0 - linearisation.x) + linearisation.x;
        vec3 e = mix(s * s / 3.0, (exp((s - 0.55991073) / 0.17883277) + 0.28466892) / 12.0,
                     vec3(greaterThan(s, vec3(0.5))));
        float ys = max(dot(e, sourceLuma), 1e-30);
        return e * (linearisation.y * pow(ys, linearisation.z));
    #else
        return linearisation.y * pow(max(v * (1.0 - linearisation.x) + linearisation.x, 0.0), vec3(2.4));
    #endif
    }

    #ifdef TONE_MAP
    const float curveLast = \(Float(ToneCurveTexture.size - 1));
    /// (f(Y), the colour ratio) at luminance y: the table is even in √Y.
    vec2 curveAt(float y) {
        float position = (sqrt(clamp(y, sourceRange.x, sourceRange.y)) - curveDomain.x)
            / (curveDomain.y - curveDomain.x) * curveLast;
        float index = clamp(floor(position), 0.0, curveLast - 1.0);
        vec2 low = texelFetch(toneCurve, ivec2(int(index), 0), 0).rg;
        vec2 high = texelFetch(toneCurve, ivec2(int(index) + 1, 0), 0).rg;
        return mix(low, high, position - index);
    }

    vec3 toneMap(vec3 light) {
        light = clamp(light, sourceRange.x, sourceRange.y);
        vec3 xyz = toXYZ * light;
        vec2 mapped = curveAt(xyz.y);
        float x = xyz.x * mapped.y, z = xyz.z * mapped.y;
        // Bright reds lose a little luminance (libplacebo's correction for X pulling Y up).
        float y = mapped.x - max(0.1 * x, 0.0);
        vec3 result = fromXYZ * vec3(x, y, z);
    #ifdef TONE_HYBRID
        vec3 crossed = crosstalk * light;
        vec3 perChannel = vec3(curveAt(crossed.r).x, curveAt(crossed.g).x, curveAt(crossed.b).x);
        float weight = 1.0;
        if (y > 0.0) {
            float p = pow(y, 2.4);
            weight = max(hybridEnds.x / p, p / hybridEnds.y);
        }
        result += (perChannel - result) * weight;
    #endif
        return result;
    }
    #endif

    vec3 finish(vec3 rgb) {
        vec3 light = linearise(rgb);
    #ifdef TONE_MAP
        light = toneMap(light);
    #endif
        // Crosstalk undone, gamut mapped and normalised in one affine map, then clipped.
        vec3 n = clamp(outMatrix * light + outOffset, 0.0, 1.0);
        light = n * (1.0 - targetMin) + targetMin;
        return clamp((pow(light, vec3(1.0 / 2.4)) - targetLift) / (1.0 - targetLift), 0.0, 1.0);
    }
    """
}
