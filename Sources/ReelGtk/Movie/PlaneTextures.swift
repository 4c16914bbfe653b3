import CEpoxy

/// One GL texture per picture plane, kept from frame to frame: storage is allocated only when a
/// plane's size or format changes; otherwise each new picture overwrites it in place.
/// Threading: main thread, with the GL context current.
@MainActor
final class PlaneTextures {
    /// What a texture's storage was allocated for. Threading: a value type.
    private struct Shape: Equatable {
        let width: Int, height: Int, format: TextureFormat
    }

    private(set) var names: [GLuint]
    private var shapes: [Shape?]

    init(count: Int) {
        names = [GLuint](repeating: 0, count: count)
        shapes = [Shape?](repeating: nil, count: count)
        reel_gl_gen_textures(GLsizei(count), &names)
    }

    func delete() {
        reel_gl_delete_textures(GLsizei(names.count), names)
        names = names.map { _ in 0 }
        shapes = shapes.map { _ in nil }
    }

    /// Whether rows `bytesPerRow` apart can be uploaded as they are: GL takes a row length in
    /// whole texels and no bottom-up (negative) strides.
    nonisolated static func canUpload(bytesPerRow: Int, width: Int, format: TextureFormat) -> Bool {
        bytesPerRow > 0 && bytesPerRow % format.bytesPerTexel == 0 && bytesPerRow / format.bytesPerTexel >= width
    }

    /// Uploads `width`×`height` texels whose rows start `bytesPerRow` apart into texture `index`.
    func upload(_ index: Int, base: UnsafeRawPointer, bytesPerRow: Int, width: Int, height: Int, format: TextureFormat) {
        reel_gl_bind_texture(GLenum(GL_TEXTURE_2D), names[index])
        reel_gl_pixel_storei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        // The decoder's rows are padded for SIMD: GL skips the padding rather than us copying.
        reel_gl_pixel_storei(GLenum(GL_UNPACK_ROW_LENGTH), GLint(bytesPerRow / format.bytesPerTexel))
        let shape = Shape(width: width, height: height, format: format)
        if shapes[index] == shape {
            reel_gl_tex_sub_image_2d(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(width), GLsizei(height),
                                     format.format, format.type, base)
        } else {
            reel_gl_tex_image_2d(GLenum(GL_TEXTURE_2D), 0, format.internalFormat, GLsizei(width), GLsizei(height),
                                 format.format, format.type, base)
            for (name, value) in [(GL_TEXTURE_MIN_FILTER, GL_LINEAR), (GL_TEXTURE_MAG_FILTER, GL_LINEAR),
                                  (GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE), (GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE)] {
                reel_gl_tex_parameteri(GLenum(GL_TEXTURE_2D), GLenum(name), value)
            }
            shapes[index] = shape
        }
        reel_gl_pixel_storei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
    }

    /// Binds texture `index` to texture unit `unit`.
    func bind(_ index: Int, unit: Int) {
        reel_gl_active_texture(GLenum(GL_TEXTURE0 + Int32(unit)))
        reel_gl_bind_texture(GLenum(GL_TEXTURE_2D), names[index])
    }
}
