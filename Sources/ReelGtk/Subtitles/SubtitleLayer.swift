import CEpoxy
import ReelEngine

/// Draws subtitles over the picture in the GL surface: the engine renders them (libass) at the
/// size the picture is shown, so text is sharp in a small window and in fullscreen alike; this
/// uploads that premultiplied RGBA image and blends it over the picture's rectangle.
/// Threading: main thread, with the GtkGLArea's context current (realize … unrealize).
@MainActor
final class SubtitleLayer {
    private var program: GLProgram?
    private var vertexArray: GLuint = 0
    private var vertexBuffer: GLuint = 0
    private let texture = PlaneTextures(count: 1)
    /// The image the texture holds, by its identity, so an unchanged one is not uploaded again.
    private var uploadedID: Int?

    init() {
        program = try? GLProgram(vertex: MovieShaders.vertex, fragment: Self.fragment, attributes: ["position"])
        program?.use()
        if let program { reel_gl_uniform1i(program.uniform("subtitles"), 0) }
        let quad: [GLfloat] = [-1, -1, 1, -1, -1, 1, 1, 1]
        reel_gl_gen_vertex_arrays(1, &vertexArray)
        reel_gl_bind_vertex_array(vertexArray)
        reel_gl_gen_buffers(1, &vertexBuffer)
        reel_gl_bind_buffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        quad.withUnsafeBytes { reel_gl_buffer_data(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        reel_gl_vertex_attrib_pointer(0, 2, GLenum(GL_FLOAT), 0, 0)
        reel_gl_enable_vertex_attrib_array(0)
        reel_gl_bind_vertex_array(0)
    }

    func release() {
        program?.delete()
        program = nil
        texture.delete()
        uploadedID = nil
        reel_gl_delete_buffers(1, &vertexBuffer)
        reel_gl_delete_vertex_arrays(1, &vertexArray)
    }

    /// Blends `image` over the rectangle (GL's bottom-left origin, as the renderer's `lastRect`).
    func draw(_ image: SubtitleImage, in rect: VideoRect) {
        guard let program, rect.width > 0, rect.height > 0 else { return }
        if uploadedID != image.id {
            image.pixels.withUnsafeBytes { bytes in
                texture.upload(0, base: bytes.baseAddress!, bytesPerRow: image.width * 4, width: image.width,
                               height: image.height, format: .rgba8)
            }
            uploadedID = image.id
        }
        reel_gl_viewport(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
        program.use()
        // The subtitles' image covers the rectangle as it is: the identity map.
        TextureMapLocations(program).set([1, 0, 0, 0, 1, 0])
        texture.bind(0, unit: 0)
        reel_gl_enable(GLenum(GL_BLEND))
        // Premultiplied alpha: the engine's image already holds colour × coverage.
        reel_gl_blend_func(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        reel_gl_bind_vertex_array(vertexArray)
        reel_gl_draw_arrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        reel_gl_bind_vertex_array(0)
        reel_gl_disable(GLenum(GL_BLEND))
    }

    private static let fragment = """
    in vec2 uv;
    out vec4 color;
    uniform sampler2D subtitles;
    void main() {
        color = texture(subtitles, uv);
    }
    """
}
