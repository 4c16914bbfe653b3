import CEpoxy

/// A compiled and linked GLSL program. Shaders are written once in GLSL 1.50/ES 3.00 common
/// syntax; the `#version` line is chosen for the context (desktop GL or GLES).
/// Threading: main thread, with the GL context current.
@MainActor
struct GLProgram {
    let id: GLuint

    enum Failure: Error, CustomStringConvertible {
        case compile(String), link(String)
        var description: String {
            switch self {
            case .compile(let log): "shader compilation failed: \(log)"
            case .link(let log): "shader link failed: \(log)"
            }
        }
    }

    static var header: String {
        reel_gl_is_es() != 0 ? "#version 300 es\nprecision highp float;\n" : "#version 150\n"
    }

    init(vertex: String, fragment: String, attributes: [String]) throws {
        let vs = try Self.compile(GLenum(GL_VERTEX_SHADER), Self.header + vertex)
        let fs = try Self.compile(GLenum(GL_FRAGMENT_SHADER), Self.header + fragment)
        let program = reel_gl_create_program()
        reel_gl_attach_shader(program, vs)
        reel_gl_attach_shader(program, fs)
        for (index, name) in attributes.enumerated() { reel_gl_bind_attrib_location(program, GLuint(index), name) }
        reel_gl_link_program(program)
        reel_gl_delete_shader(vs)
        reel_gl_delete_shader(fs)
        guard reel_gl_program_linked(program) != 0 else {
            var log = [CChar](repeating: 0, count: 2048)
            reel_gl_program_log(program, GLsizei(log.count), &log)
            reel_gl_delete_program(program)
            throw Failure.link(Self.text(log))
        }
        id = program
    }

    private static func compile(_ type: GLenum, _ source: String) throws -> GLuint {
        let shader = reel_gl_create_shader(type)
        reel_gl_shader_source(shader, source)
        reel_gl_compile_shader(shader)
        guard reel_gl_shader_compiled(shader) != 0 else {
            var log = [CChar](repeating: 0, count: 2048)
            reel_gl_shader_log(shader, GLsizei(log.count), &log)
            reel_gl_delete_shader(shader)
            throw Failure.compile(Self.text(log))
        }
        return shader
    }

    /// A NUL-terminated info log as text.
    private static func text(_ log: [CChar]) -> String {
        String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func uniform(_ name: String) -> GLint { reel_gl_uniform_location(id, name) }
    func use() { reel_gl_use_program(id) }
    func delete() { reel_gl_delete_program(id) }
}
