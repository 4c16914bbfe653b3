import CEpoxy
import ReelEngine

/// The shader that turns Y, Cb, Cr textures into RGB, with its uniforms looked up once.
/// Threading: main thread, with the GL context current.
@MainActor
struct YUVProgram {
    let program: GLProgram
    private let matrix: GLint, offset: GLint, chromaScale: GLint, chromaOffset: GLint, gamma: GLint
    private let map: TextureMapLocations
    private let colour: ColourLocations?

    /// `semiPlanar`: Cb and Cr come interleaved from one two-channel texture (nv12, p010).
    /// `colour`: the colour steps of pictures with a `ColourPlan`; nil for SDR BT.709, whose
    /// program is the plain matrix as it always was.
    /// `userGamma`: the equalizer's gamma as the last step (a variant, so that the plain
    /// programs stay exactly as they were).
    init(semiPlanar: Bool, colour variant: ColourShader.Variant? = nil, userGamma: Bool = false) throws {
        program = try GLProgram(vertex: MovieShaders.vertex,
                                fragment: (semiPlanar ? "#define SEMI_PLANAR\n" : "") + (variant?.defines ?? "")
                                    + (userGamma ? "#define USER_GAMMA\n" : "") + MovieShaders.yuvFragment,
                                attributes: ["position"])
        gamma = program.uniform("userGamma")
        matrix = program.uniform("yuvToRgb")
        offset = program.uniform("rgbOffset")
        chromaScale = program.uniform("chromaScale")
        chromaOffset = program.uniform("chromaOffset")
        map = TextureMapLocations(program)
        program.use()
        // Texture units are fixed: luma on 0, Cb (or CbCr) on 1, Cr on 2.
        reel_gl_uniform1i(program.uniform("lumaPlane"), 0)
        reel_gl_uniform1i(program.uniform("cbPlane"), 1)
        if !semiPlanar { reel_gl_uniform1i(program.uniform("crPlane"), 2) }
        let program = self.program
        colour = variant.map { _ in ColourLocations(program) }
        if let variant, variant.mode != .none {
            reel_gl_uniform1i(program.uniform("toneCurve"), GLint(ColourShader.curveUnit))
        }
    }

    /// `textureMap`: where the viewport samples the picture (see `MovieShaders.vertex`).
    /// `gamma`: the exponent of a `userGamma` program's last step (1/g).
    func use(_ conversion: YUVConversion, chromaScale scale: (Float, Float), chromaOffset shift: (Float, Float),
             textureMap: [Float], gamma exponent: Float = 1) {
        program.use()
        map.set(textureMap)
        if gamma >= 0 { reel_gl_uniform1f(gamma, exponent) }
        conversion.matrix.withUnsafeBufferPointer { reel_gl_uniform_matrix3fv(matrix, $0.baseAddress) }
        reel_gl_uniform3f(offset, conversion.offset[0], conversion.offset[1], conversion.offset[2])
        reel_gl_uniform2f(chromaScale, scale.0, scale.1)
        reel_gl_uniform2f(chromaOffset, shift.0, shift.1)
    }

    /// Sets the colour steps' numbers (a program compiled with a colour variant).
    func use(colour uniforms: ColourShader.Uniforms) {
        colour?.set(uniforms)
    }

    /// Where the colour uniforms are. Threading: main thread, with the GL context current.
    @MainActor
    private struct ColourLocations {
        let linearisation, sourceLuma, sourceRange, curveDomain, hybridEnds: GLint
        let toXYZ, fromXYZ, crosstalk, outMatrix, outOffset, targetMin, targetLift: GLint

        init(_ program: GLProgram) {
            linearisation = program.uniform("linearisation")
            sourceLuma = program.uniform("sourceLuma")
            sourceRange = program.uniform("sourceRange")
            curveDomain = program.uniform("curveDomain")
            hybridEnds = program.uniform("hybridEnds")
            toXYZ = program.uniform("toXYZ")
            fromXYZ = program.uniform("fromXYZ")
            crosstalk = program.uniform("crosstalk")
            outMatrix = program.uniform("outMatrix")
            outOffset = program.uniform("outOffset")
            targetMin = program.uniform("targetMin")
            targetLift = program.uniform("targetLift")
        }

        func set(_ u: ColourShader.Uniforms) {
            reel_gl_uniform3f(linearisation, u.linearisation.x, u.linearisation.y, u.linearisation.z)
            reel_gl_uniform3f(sourceLuma, u.sourceLuma.x, u.sourceLuma.y, u.sourceLuma.z)
            reel_gl_uniform2f(sourceRange, u.sourceRange.x, u.sourceRange.y)
            reel_gl_uniform2f(curveDomain, u.curveDomain.x, u.curveDomain.y)
            reel_gl_uniform2f(hybridEnds, u.hybridEnds.x, u.hybridEnds.y)
            for (location, matrix) in [(toXYZ, u.toXYZ), (fromXYZ, u.fromXYZ), (crosstalk, u.crosstalk), (outMatrix, u.outMatrix)] {
                matrix.withUnsafeBufferPointer { reel_gl_uniform_matrix3fv(location, $0.baseAddress) }
            }
            reel_gl_uniform3f(outOffset, u.outOffset.x, u.outOffset.y, u.outOffset.z)
            reel_gl_uniform1f(targetMin, u.targetMin)
            reel_gl_uniform1f(targetLift, u.targetLift)
        }
    }
}

/// The shader that draws an RGB texture (packed RGB pictures, and libswscale's conversions).
/// Threading: main thread, with the GL context current.
@MainActor
struct RGBProgram {
    let program: GLProgram
    private let swapRedBlue: GLint
    private let map: TextureMapLocations
    private let adjust: GLint, adjustOffset: GLint, gamma: GLint

    /// `equalized`: with the equalizer's steps (`Equalizer.rgbMatrix`, then the gamma); a
    /// variant, so that the plain program stays exactly as it was.
    init(equalized: Bool = false) throws {
        program = try GLProgram(vertex: MovieShaders.vertex,
                                fragment: (equalized ? "#define EQUALIZER\n" : "") + MovieShaders.rgbFragment,
                                attributes: ["position"])
        swapRedBlue = program.uniform("swapRedBlue")
        map = TextureMapLocations(program)
        adjust = program.uniform("adjust")
        adjustOffset = program.uniform("adjustOffset")
        gamma = program.uniform("userGamma")
        program.use()
        reel_gl_uniform1i(program.uniform("picture"), 0)
    }

    /// `swapRedBlue`: the texture holds BGRA bytes (uploaded as RGBA, which GLES requires).
    func use(swapRedBlue swap: Bool, textureMap: [Float]) {
        program.use()
        map.set(textureMap)
        reel_gl_uniform1i(swapRedBlue, swap ? 1 : 0)
    }

    /// The equalizer's numbers, for pictures of `matrix` (an `equalized` program, in use).
    func use(_ equalizer: Equalizer, matrix: ColorMatrix) {
        equalizer.rgbMatrix(matrix).columnMajor.withUnsafeBufferPointer { reel_gl_uniform_matrix3fv(adjust, $0.baseAddress) }
        let o = Float(equalizer.offset)
        reel_gl_uniform3f(adjustOffset, o, o, o)
        reel_gl_uniform1f(gamma, Float(1 / equalizer.gammaFactor))
    }
}

/// Where the vertex shader's texture map is. Threading: main thread, with the GL context current.
@MainActor
struct TextureMapLocations {
    let s: GLint, t: GLint

    init(_ program: GLProgram) {
        s = program.uniform("mapS")
        t = program.uniform("mapT")
    }

    /// (a, b, c, d, e, f): s = a·x + b·y + c, t = d·x + e·y + f.
    func set(_ m: [Float]) {
        reel_gl_uniform3f(s, m[0], m[1], m[2])
        reel_gl_uniform3f(t, m[3], m[4], m[5])
    }
}

/// GLSL sources (GLSL 1.50 / ES 3.00 common syntax; GLProgram adds the `#version`).
/// Threading: constants.
enum MovieShaders {
    /// A full-viewport quad; `uv` is where each point of the viewport samples the picture's
    /// textures (0 to 1 over the whole decoded picture): an affine map (`PicturePlacement`'s
    /// texture transform) from the viewport's own coordinates (top-left 0, bottom-right 1),
    /// which carries the crop, zoom, pan, turns (a phone's display matrix, the person's) and
    /// the mirror. Without them it is the identity, and sampling is exactly as it always was.
    static let vertex = """
    in vec2 position;
    out vec2 uv;
    uniform vec3 mapS;
    uniform vec3 mapT;
    void main() {
        vec3 screen = vec3(position.x * 0.5 + 0.5, 0.5 - position.y * 0.5, 1.0);
        uv = vec2(dot(mapS, screen), dot(mapT, screen));
        gl_Position = vec4(position, 0.0, 1.0);
    }
    """

    /// Chroma is sampled at its own coordinates (its siting, see ChromaSiting); the matrix and
    /// offset carry range, bit depth and sample packing (see YUVConversion). Under `COLOUR`
    /// the R′G′B′ then goes through the plan's steps (ColourShader); without, the program is
    /// the plain matrix.
    static let yuvFragment = """
    #ifdef GL_ES
    precision highp sampler2D;  // ES defaults samplers to lowp: too coarse for 10-bit samples
    #endif
    in vec2 uv;
    out vec4 color;
    uniform sampler2D lumaPlane;
    uniform sampler2D cbPlane;
    #ifndef SEMI_PLANAR
    uniform sampler2D crPlane;
    #endif
    uniform mat3 yuvToRgb;
    uniform vec3 rgbOffset;
    uniform vec2 chromaScale;
    uniform vec2 chromaOffset;
    #ifdef COLOUR
    \(ColourShader.functions)
    #endif
    #ifdef USER_GAMMA
    uniform float userGamma;
    #endif
    void main() {
        vec2 chromaUV = uv * chromaScale + chromaOffset;
        float y = texture(lumaPlane, uv).r;
    #ifdef SEMI_PLANAR
        vec2 cbcr = texture(cbPlane, chromaUV).rg;
    #else
        vec2 cbcr = vec2(texture(cbPlane, chromaUV).r, texture(crPlane, chromaUV).r);
    #endif
    #ifdef COLOUR
        color = vec4(finish(clamp(yuvToRgb * vec3(y, cbcr) + rgbOffset, 0.0, 1.0)), 1.0);
    #else
        color = vec4(clamp(yuvToRgb * vec3(y, cbcr) + rgbOffset, 0.0, 1.0), 1.0);
    #endif
    #ifdef USER_GAMMA
        color.rgb = pow(clamp(color.rgb, 0.0, 1.0), vec3(userGamma));
    #endif
    }
    """

    /// Under `EQUALIZER`, the equalizer's affine map of R′G′B′ and its gamma follow.
    static let rgbFragment = """
    in vec2 uv;
    out vec4 color;
    uniform sampler2D picture;
    uniform bool swapRedBlue;
    #ifdef EQUALIZER
    uniform mat3 adjust;
    uniform vec3 adjustOffset;
    uniform float userGamma;
    #endif
    void main() {
        vec3 rgb = texture(picture, uv).rgb;
        rgb = swapRedBlue ? rgb.bgr : rgb;
    #ifdef EQUALIZER
        rgb = pow(clamp(adjust * rgb + adjustOffset, 0.0, 1.0), vec3(userGamma));
    #endif
        color = vec4(rgb, 1.0);
    }
    """
}
