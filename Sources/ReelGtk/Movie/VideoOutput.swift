/// How pictures reach the screen, decided once per process: through GL shaders where GL is
/// real, or converted by libswscale and painted with cairo where GL is software (Mesa's
/// llvmpipe, softpipe, swrast) or missing. A software GL would rasterise every picture twice
/// on the CPU (into the GL area, then the window), at several times the cost.
/// Threading: a value type; `decide` is a pure function of what it is given.
public struct VideoOutput: Sendable, Equatable {
    public enum Path: String, Sendable {
        case gl
        case software
    }

    /// What the user asked for: the `video-output` preference, or `REEL_VIDEO_OUTPUT`.
    public enum Choice: String, Sendable, CaseIterable {
        case automatic = "auto"
        case gl
        case software
    }

    /// What the GL probe found. Threading: a value type.
    public struct GLInfo: Sendable, Equatable {
        public let renderer: String
        public let vendor: String
        public let version: String

        public init(renderer: String, vendor: String, version: String) {
            self.renderer = renderer
            self.vendor = vendor
            self.version = version
        }

        /// OpenGL ES rather than desktop GL: ES's GL_VERSION starts so, by its specification.
        public var isES: Bool { version.hasPrefix("OpenGL ES") }

        /// Whether the CPU does the GL drawing. Mesa names its software rasterisers in
        /// GL_RENDERER ("llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Software Rasterizer"
        /// for swrast, "SWR" for OpenSWR).
        public var isSoftware: Bool {
            let name = renderer.lowercased()
            return ["llvmpipe", "softpipe", "software rasterizer", "swrast", "swr "].contains { name.contains($0) }
                || name == "swr"
        }
    }

    public let path: Path
    /// What the probe found: the GL renderer, or why there is no GL.
    public let gl: Result<GLInfo, GLUnavailable>
    /// Why this path, as a value: the window says it in the person's language.
    public let why: Why

    /// Why a path was taken. Threading: a value type.
    public enum Why: Sendable, Equatable {
        /// No GL context could be made; the graphics stack's message (in English).
        case noGL(String)
        /// The path was asked for, by the environment variable or the preference.
        case chosen(byEnvironment: Bool)
        /// GL is there but the CPU would rasterise it (the renderer's name).
        case softwareGL(renderer: String)
        /// GL is drawn by a GPU (the renderer's name).
        case acceleratedGL(renderer: String)
    }

    /// Why this path in English, for `--report` and the log (stable, not translated).
    public var reason: String {
        switch why {
        case .noGL(let message): "no OpenGL: \(message)"
        case .chosen(let byEnvironment):
            "\(path == .gl ? "OpenGL" : "software drawing") chosen by \(byEnvironment ? "REEL_VIDEO_OUTPUT" : "the preference")"
        case .softwareGL(let renderer): "OpenGL is drawn by the CPU (\(renderer))"
        case .acceleratedGL(let renderer): "OpenGL is accelerated (\(renderer))"
        }
    }

    /// Why GL cannot be used. Threading: a value type.
    public struct GLUnavailable: Error, Sendable, Equatable {
        public let message: String
        public init(_ message: String) { self.message = message }
    }

    /// The path for a choice (the environment variable wins over the preference) and what the
    /// probe found. A forced GL path without GL still falls back: a window that cannot draw at
    /// all helps nobody.
    public static func decide(preference: Choice, environment: String?, gl: Result<GLInfo, GLUnavailable>) -> VideoOutput {
        let forced = environment.flatMap { Choice(rawValue: $0.lowercased()) }
        let choice = forced ?? preference
        switch (choice, gl) {
        case (_, .failure(let error)):
            return VideoOutput(path: .software, gl: gl, why: .noGL(error.message))
        case (.software, .success):
            return VideoOutput(path: .software, gl: gl, why: .chosen(byEnvironment: forced != nil))
        case (.gl, .success):
            return VideoOutput(path: .gl, gl: gl, why: .chosen(byEnvironment: forced != nil))
        case (.automatic, .success(let info)):
            return info.isSoftware
                ? VideoOutput(path: .software, gl: gl, why: .softwareGL(renderer: info.renderer))
                : VideoOutput(path: .gl, gl: gl, why: .acceleratedGL(renderer: info.renderer))
        }
    }

    /// The renderer's name, or "none".
    public var rendererName: String {
        switch gl {
        case .success(let info): info.renderer
        case .failure: "none"
        }
    }

    /// Whether a GPU draws GL here.
    public var isAccelerated: Bool {
        switch gl {
        case .success(let info): !info.isSoftware
        case .failure: false
        }
    }
}
