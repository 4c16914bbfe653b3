import CEpoxy

/// One GL texture per picture plane, kept from frame to frame: storage is allocated only when a
/// plane's size or format changes; otherwise each new picture overwrites it in place. A picture
/// drawn at less than half its size is sampled from mipmaps (see `minify`), so that detail finer
/// than the screen's pixels averages out instead of shimmering.
/// Threading: main thread, with the GL context current.
@MainActor
final class PlaneTextures {
    /// What a texture's storage was allocated for. Threading: a value type.
    private struct Shape: Equatable {
        let width: Int, height: Int, format: TextureFormat
    }

    private(set) var names: [GLuint]
    private var shapes: [Shape?]
    /// Whether each texture's mipmaps were made from what it holds now.
    private var mipmapped: [Bool]
    /// Whether each texture samples its mipmaps when minified.
    private var minifying: [Bool]

    init(count: Int) {
        names = [GLuint](repeating: 0, count: count)
        shapes = [Shape?](repeating: nil, count: count)
        mipmapped = [Bool](repeating: false, count: count)
        minifying = mipmapped
        reel_gl_gen_textures(GLsizei(count), &names)
    }

    func delete() {
        reel_gl_delete_textures(GLsizei(names.count), names)
        names = names.map { _ in 0 }
        shapes = shapes.map { _ in nil }
        mipmapped = mipmapped.map { _ in false }
        minifying = mipmapped
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
            minifying[index] = false
        }
        mipmapped[index] = false
        reel_gl_pixel_storei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
    }

    /// Whether textures `0..<count` are sampled through mipmaps (trilinear) or as they are
    /// (bilinear). Mipmaps are made from the texture's picture the first time it needs them: once
    /// per picture while it is drawn small, never while it is drawn at half its size or more,
    /// where bilinear sampling already takes in every texel.
    func minify(_ count: Int, _ on: Bool) {
        for index in 0..<min(count, names.count) where shapes[index] != nil {
            guard on || minifying[index] else { continue }
            reel_gl_bind_texture(GLenum(GL_TEXTURE_2D), names[index])
            if on, !mipmapped[index] {
                reel_gl_generate_mipmap(GLenum(GL_TEXTURE_2D))
                mipmapped[index] = true
            }
            if minifying[index] != on {
                reel_gl_tex_parameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER),
                                       on ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR)
                minifying[index] = on
            }
        }
    }

    /// Binds texture `index` to texture unit `unit`.
    func bind(_ index: Int, unit: Int) {
        reel_gl_active_texture(GLenum(GL_TEXTURE0 + Int32(unit)))
        reel_gl_bind_texture(GLenum(GL_TEXTURE_2D), names[index])
    }
}
