import CEpoxy
import Foundation
import ReelEngine

/// Draws decoded pictures with GL, letterboxed into the viewport. This first version converts
/// every picture to RGB on the CPU (libswscale, through the engine) and draws it as a texture:
/// the path any pixel format can take.
/// Threading: main thread, with the GtkGLArea's context current (realize … unrealize).
@MainActor
final class MovieRenderer {
    private var program: GLProgram?
    private var vertexArray: GLuint = 0
    private var vertexBuffer: GLuint = 0
    private var texture: GLuint = 0
    private var uploaded: ObjectIdentifier?
    private(set) var lastRect = VideoRect(x: 0, y: 0, width: 0, height: 0)
    /// The last GL problem, for the window to report instead of drawing garbage.
    private(set) var failure: String?

    init() {
        do {
            program = try GLProgram(vertex: Self.vertexShader, fragment: Self.fragmentShader,
                                    attributes: ["position"])
        } catch {
            failure = "\(error)"
        }
        // A full-viewport quad as a triangle strip; the viewport does the letterboxing.
        let quad: [GLfloat] = [-1, -1, 1, -1, -1, 1, 1, 1]
        reel_gl_gen_vertex_arrays(1, &vertexArray)
        reel_gl_bind_vertex_array(vertexArray)
        reel_gl_gen_buffers(1, &vertexBuffer)
        reel_gl_bind_buffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        quad.withUnsafeBytes { reel_gl_buffer_data(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        reel_gl_vertex_attrib_pointer(0, 2, GLenum(GL_FLOAT), 0, 0)
        reel_gl_enable_vertex_attrib_array(0)
        reel_gl_bind_vertex_array(0)
        reel_gl_gen_textures(1, &texture)
    }

    /// Frees GL objects; call with the context current (unrealize).
    func release() {
        program?.delete()
        program = nil
        reel_gl_delete_textures(1, &texture)
        reel_gl_delete_buffers(1, &vertexBuffer)
        reel_gl_delete_vertex_arrays(1, &vertexArray)
    }

    /// Clears to black and draws `frame` (if any) letterboxed into a `width`×`height` viewport.
    func draw(_ frame: VideoFrame?, width: Int, height: Int) {
        reel_gl_viewport(0, 0, GLsizei(width), GLsizei(height))
        reel_gl_clear_color(0, 0, 0, 1)
        reel_gl_clear(GLbitfield(GL_COLOR_BUFFER_BIT))
        guard let frame, let program else { return }
        let rect = VideoRect.fit(displayWidth: Double(frame.displayWidth), displayHeight: Double(frame.height),
                                 viewWidth: width, viewHeight: height)
        lastRect = rect
        if uploaded != ObjectIdentifier(frame) {
            guard upload(frame) else { return }
            uploaded = ObjectIdentifier(frame)
        }
        reel_gl_viewport(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
        program.use()
        reel_gl_active_texture(GLenum(GL_TEXTURE0))
        reel_gl_bind_texture(GLenum(GL_TEXTURE_2D), texture)
        reel_gl_uniform1i(program.uniform("picture"), 0)
        reel_gl_bind_vertex_array(vertexArray)
        reel_gl_draw_arrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        reel_gl_bind_vertex_array(0)
    }

    private func upload(_ frame: VideoFrame) -> Bool {
        let rgb: Data
        do { rgb = try frame.rgbPixels() } catch {
            failure = error.message
            return false
        }
        reel_gl_bind_texture(GLenum(GL_TEXTURE_2D), texture)
        reel_gl_pixel_storei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        rgb.withUnsafeBytes {
            reel_gl_tex_image_2d(GLenum(GL_TEXTURE_2D), 0, GL_RGB8, GLsizei(frame.width), GLsizei(frame.height),
                                 GLenum(GL_RGB), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        reel_gl_tex_parameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        reel_gl_tex_parameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        reel_gl_tex_parameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        reel_gl_tex_parameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        return true
    }

    /// The picture area as drawn, read back from the framebuffer: RGBA rows, top row first.
    func readBack(viewHeight: Int) -> (pixels: [UInt8], width: Int, height: Int)? {
        let r = lastRect
        guard r.width > 0, r.height > 0 else { return nil }
        var pixels = [UInt8](repeating: 0, count: r.width * r.height * 4)
        reel_gl_pixel_storei(GLenum(GL_PACK_ALIGNMENT), 1)
        reel_gl_read_pixels(GLint(r.x), GLint(r.y), GLsizei(r.width), GLsizei(r.height),
                            GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &pixels)
        // GL's rows run bottom to top.
        var flipped = [UInt8](repeating: 0, count: pixels.count)
        let row = r.width * 4
        for y in 0..<r.height {
            flipped.replaceSubrange((y * row)..<((y + 1) * row), with: pixels[((r.height - 1 - y) * row)..<((r.height - y) * row)])
        }
        return (flipped, r.width, r.height)
    }

    private static let vertexShader = """
    in vec2 position;
    out vec2 uv;
    void main() {
        uv = vec2(position.x * 0.5 + 0.5, 0.5 - position.y * 0.5);
        gl_Position = vec4(position, 0.0, 1.0);
    }
    """

    private static let fragmentShader = """
    in vec2 uv;
    out vec4 color;
    uniform sampler2D picture;
    void main() {
        color = vec4(texture(picture, uv).rgb, 1.0);
    }
    """
}
