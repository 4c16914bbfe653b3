/// The ways Reel puts pictures on screen, forced through REEL_VIDEO_OUTPUT so that tests run
/// each whatever this machine's GL would choose (here, Mesa's llvmpipe chooses software). The
/// GL path also runs on OpenGL ES (GTK asked for an ES context), where the shaders meet GLSL
/// ES's rules and the 16-bit textures come from an extension: the suites about shaders add it.
/// Threading: a value type.
enum DrawingPath: String, CaseIterable, Sendable, CustomStringConvertible {
    case software
    case gl
    case gles

    /// The two paths a person's machine chooses between.
    static var allCases: [DrawingPath] { [.software, .gl] }
    /// The same, and the GL path on OpenGL ES.
    static let withGLES: [DrawingPath] = [.software, .gl, .gles]

    var environment: [String: String] {
        switch self {
        case .software: ["REEL_VIDEO_OUTPUT": "software"]
        case .gl: ["REEL_VIDEO_OUTPUT": "gl"]
        case .gles: ["REEL_VIDEO_OUTPUT": "gl", "GDK_DEBUG": "gl-gles"]
        }
    }

    var description: String {
        switch self {
        case .software: "software path"
        case .gl: "GL path"
        case .gles: "GL ES path"
        }
    }
}
