import ReelGtk
import Testing

/// Which path draws the pictures, as a policy: GL where a GPU draws it, the CPU path where GL
/// is software or missing, and the user's choice (preference, environment) over both.
@Suite("Video output choice")
struct VideoOutputTests {
    /// GL_RENDERER strings as Mesa and the drivers report them.
    static let llvmpipe = VideoOutput.GLInfo(renderer: "llvmpipe (LLVM 15.0.6, 256 bits)", vendor: "Mesa", version: "4.5 (Core Profile) Mesa 22.3.6")
    static let hardware = [
        VideoOutput.GLInfo(renderer: "Mesa Intel(R) UHD Graphics 620 (KBL GT2)", vendor: "Intel", version: "4.6 (Core Profile) Mesa 22.3.6"),
        VideoOutput.GLInfo(renderer: "AMD Radeon RX 6600 (navi23, LLVM 15.0.6, DRM 3.49, 6.1.0-13-amd64)", vendor: "AMD", version: "4.6 (Core Profile) Mesa 22.3.6"),
        VideoOutput.GLInfo(renderer: "NVIDIA GeForce GTX 1060 6GB/PCIe/SSE2", vendor: "NVIDIA Corporation", version: "4.6.0 NVIDIA 525.125.06"),
        VideoOutput.GLInfo(renderer: "virgl", vendor: "Mesa/X.org", version: "4.3 (Core Profile) Mesa 22.3.6"),
    ]
    static let software = [
        llvmpipe,
        VideoOutput.GLInfo(renderer: "softpipe", vendor: "Mesa/X.org", version: "3.3 (Core Profile) Mesa 22.3.6"),
        VideoOutput.GLInfo(renderer: "Software Rasterizer", vendor: "Mesa Project", version: "2.1 Mesa 10.1.3"),
        VideoOutput.GLInfo(renderer: "SWR (LLVM 9.0.1, 256 bits)", vendor: "Intel Corporation", version: "3.3 (Core Profile) Mesa 20.0.8"),
    ]

    @Test("Mesa's software rasterisers are told from GPUs by GL_RENDERER")
    func softwareRenderers() {
        for info in Self.software { #expect(info.isSoftware, "\(info.renderer)") }
        // LLVM in an AMD GPU's name is its shader compiler, not llvmpipe.
        for info in Self.hardware { #expect(!info.isSoftware, "\(info.renderer)") }
    }

    @Test("Automatic: GL on a GPU, the CPU path on a software GL or without GL")
    func automatic() {
        for info in Self.hardware {
            let output = VideoOutput.decide(preference: .automatic, environment: nil, gl: .success(info))
            #expect(output.path == .gl)
            #expect(output.isAccelerated)
        }
        for info in Self.software {
            let output = VideoOutput.decide(preference: .automatic, environment: nil, gl: .success(info))
            #expect(output.path == .software)
            #expect(!output.isAccelerated)
            #expect(output.reason.contains(info.renderer))
            #expect(output.why == .softwareGL(renderer: info.renderer))
        }
        let none = VideoOutput.decide(preference: .automatic, environment: nil, gl: .failure(.init("No GL implementation is available")))
        #expect(none.path == .software)
        #expect(none.rendererName == "none")
        #expect(none.reason.contains("No GL implementation is available"))
        #expect(none.why == .noGL("No GL implementation is available"))
    }

    @Test("The preference forces either path; the environment variable wins over it")
    func forced() {
        let gpu = Self.hardware[0]
        #expect(VideoOutput.decide(preference: .software, environment: nil, gl: .success(gpu)).path == .software)
        #expect(VideoOutput.decide(preference: .gl, environment: nil, gl: .success(Self.llvmpipe)).path == .gl)
        #expect(VideoOutput.decide(preference: .gl, environment: "software", gl: .success(gpu)).path == .software)
        #expect(VideoOutput.decide(preference: .software, environment: "GL", gl: .success(Self.llvmpipe)).path == .gl)
        #expect(VideoOutput.decide(preference: .software, environment: "auto", gl: .success(gpu)).path == .gl)
        // An empty or unknown value is no choice: the preference stands.
        #expect(VideoOutput.decide(preference: .gl, environment: "", gl: .success(Self.llvmpipe)).path == .gl)
        #expect(VideoOutput.decide(preference: .software, environment: "vulkan", gl: .success(gpu)).path == .software)
        let forced = VideoOutput.decide(preference: .automatic, environment: "gl", gl: .success(Self.llvmpipe))
        #expect(forced.reason.contains("REEL_VIDEO_OUTPUT"))
        #expect(forced.why == .chosen(byEnvironment: true))
        #expect(VideoOutput.decide(preference: .software, environment: nil, gl: .success(gpu)).why == .chosen(byEnvironment: false))
    }

    @Test("GL forced where there is no GL still draws, on the CPU path")
    func forcedWithoutGL() {
        let output = VideoOutput.decide(preference: .gl, environment: "gl", gl: .failure(.init("no GL")))
        #expect(output.path == .software)
    }

    @Test("An OpenGL ES context is told apart from desktop GL by its version string, as ES defines it")
    func openGLES() {
        #expect(VideoOutput.GLInfo(renderer: "Mali-G52", vendor: "ARM", version: "OpenGL ES 3.2 v1.r32p1").isES)
        #expect(VideoOutput.GLInfo(renderer: "llvmpipe", vendor: "Mesa", version: "OpenGL ES 3.2 Mesa 22.3.6").isES)
        #expect(!Self.llvmpipe.isES && !VideoOutput.GLInfo(renderer: "x", vendor: "y", version: "4.6.0 NVIDIA 525.125.06").isES)
    }
}
