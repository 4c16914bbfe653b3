import CEpoxy
import ReelEngine

/// The tone curve of the plan being drawn, as a 1,025×1 two-channel float texture (f(Y) and
/// the colour ratio, even in √Y: `ColourPlan.curveTable`), which the shader reads by texel
/// and interpolates itself. Built again only when the plan changes, not per picture.
/// Threading: main thread, with the GL context current.
@MainActor
final class ToneCurveTexture {
    nonisolated static let size = 1025
    private var name: GLuint = 0
    /// The plan the texture holds the curve of.
    private(set) var plan: ColourPlan?

    init() {
        reel_gl_gen_textures(1, &name)
    }

    /// Fills the texture with `plan`'s curve unless it holds it already.
    func update(_ plan: ColourPlan) {
        guard plan != self.plan else { return }
        let table = plan.curveTable(size: Self.size)
        guard table.count == Self.size else { return }
        reel_gl_bind_texture(GLenum(GL_TEXTURE_2D), name)
        reel_gl_pixel_storei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        // 32-bit floats: GL and GLES 3 both take RG32F; sampled with texelFetch it needs no
        // filtering support (NEAREST keeps it complete on GLES, where RG32F is not filterable).
        table.withUnsafeBytes {
            reel_gl_tex_image_2d(GLenum(GL_TEXTURE_2D), 0, GL_RG32F, GLsizei(Self.size), 1, GLenum(GL_RG), GLenum(GL_FLOAT),
                                 $0.baseAddress)
        }
        for (parameter, value) in [(GL_TEXTURE_MIN_FILTER, GL_NEAREST), (GL_TEXTURE_MAG_FILTER, GL_NEAREST),
                                   (GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE), (GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE)] {
            reel_gl_tex_parameteri(GLenum(GL_TEXTURE_2D), GLenum(parameter), value)
        }
        self.plan = plan
    }

    func bind(unit: Int) {
        reel_gl_active_texture(GLenum(GL_TEXTURE0 + Int32(unit)))
        reel_gl_bind_texture(GLenum(GL_TEXTURE_2D), name)
    }

    /// Frees the texture; call with the context current (unrealize).
    func delete() {
        reel_gl_delete_textures(1, &name)
        name = 0
        plan = nil
    }
}
