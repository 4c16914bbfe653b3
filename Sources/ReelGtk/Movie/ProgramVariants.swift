import CEpoxy
import ReelEngine

/// The movie renderer's programs beyond the three it starts with, compiled when a picture first
/// needs one: the YUV program's variants (colour steps for pictures with a `ColourPlan`, the
/// equalizer's gamma), the RGB program with the equalizer, and the tone curve texture the colour
/// variants read. Deleted together when the GL area goes.
/// Threading: main thread, with the GL context current.
@MainActor
final class ProgramVariants {
    /// A variant of the YUV program: planar or semi-planar, the colour steps, the equalizer's
    /// gamma. Threading: a value type.
    private struct Key: Hashable {
        let semiPlanar: Bool
        let colour: ColourShader.Variant?
        let userGamma: Bool
    }

    private var yuv: [Key: YUVProgram] = [:]
    private var equalizedRGB: RGBProgram?
    private var toneCurve: ToneCurveTexture?
    private var lastUniforms: (plan: ColourPlan, value: ColourShader.Uniforms)?

    /// The YUV program for `plan`'s steps and the gamma, compiled the first time.
    func yuv(semiPlanar: Bool, _ plan: ColourPlan?, userGamma: Bool) throws -> YUVProgram {
        let key = Key(semiPlanar: semiPlanar, colour: plan.map(ColourShader.Variant.init), userGamma: userGamma)
        if let program = yuv[key] { return program }
        let program = try YUVProgram(semiPlanar: semiPlanar, colour: key.colour, userGamma: userGamma)
        yuv[key] = program
        return program
    }

    /// The RGB program with the equalizer's steps, compiled the first time.
    func rgbWithEqualizer() throws -> RGBProgram {
        if let equalizedRGB { return equalizedRGB }
        let program = try RGBProgram(equalized: true)
        equalizedRGB = program
        return program
    }

    /// Sets `plan`'s uniforms on `program` (in use) and binds its tone curve.
    func useColour(_ plan: ColourPlan, _ program: YUVProgram) {
        if lastUniforms?.plan != plan { lastUniforms = (plan, ColourShader.Uniforms(plan)) }
        if let uniforms = lastUniforms?.value { program.use(colour: uniforms) }
        guard plan.mode != .none else { return }
        let curve = toneCurve ?? ToneCurveTexture()
        toneCurve = curve
        curve.bind(unit: ColourShader.curveUnit)
        curve.update(plan)
    }

    func delete() {
        for program in yuv.values { program.program.delete() }
        yuv = [:]
        equalizedRGB?.program.delete()
        equalizedRGB = nil
        toneCurve?.delete()
        toneCurve = nil
        lastUniforms = nil
    }
}
