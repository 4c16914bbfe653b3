import Foundation
import ReelTestSupport
import Testing

/// Deinterlacing as a person meets it in the window: the info card says it is on, `d` cycles
/// auto → on → off with a billboard, and the picture's menu item names the mode now; `--report`
/// says it too.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Deinterlacing in the window", .serialized)
struct DeinterlaceWindowTests {
    /// Per drawing path, one desktop and one `reel`, paused at 0.5 s; the window takes the
    /// clip's size after the blank clip's.
    static let shared = Dictionary(uniqueKeysWithValues: DrawingPath.allCases.map { path in
        (path, SharedReel(launchOptions: ["--paused", "--start", "0.5"], blank: .glBlank, resizes: true,
                          environment: path.environment, settings: ["hide-controls-while-paused=true"]))
    })

    @Test("The info card says bwdif is on; d cycles the mode, and the billboard and the picture's menu follow")
    func keyMenuAndCard() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .interlacedTFF, settings: [ControlsTests.readableMessages])
            try s.desktop.click(s.movie.x + 5, s.movie.y + s.movie.height / 2)   // focus the window
            try s.desktop.key("i")
            try s.app.waitForElement("the info card saying how it deinterlaces") {
                $0.name.contains("Deinterlacing: bwdif, 50 pictures/s, top field first")
            }
            try s.desktop.key("d")
            try s.app.waitForElement("the billboard saying on") { $0.role == "label" && $0.name == "Deinterlacing: on" }
            let x = s.movie.x + s.movie.width / 3, y = s.movie.y + s.movie.height / 3
            try s.desktop.xdotool(["mousemove", String(x), String(y), "click", "3"])
            try s.app.waitForElement("the picture's menu naming the mode") {
                $0.role == "menu item" && $0.name == "Deinterlace: On"
            }
            try s.desktop.key("Escape")
            try s.desktop.key("d")
            try s.app.waitForElement("the billboard saying off") { $0.role == "label" && $0.name == "Deinterlacing: off" }
            try s.app.waitForTree("the info card without deinterlacing") { tree in
                tree.contains { $0.name.contains("Frames:") } && !tree.contains { $0.name.contains("Deinterlacing: bwdif") }
            }
        }
    }

    /// 0.5 s is where field 25 starts (frame 12's second field): what both paths draw,
    /// paused there, is FFmpeg's own bwdif picture 25 converted to RGB.
    @Test("Either path draws bwdif's field, as FFmpeg converts it", arguments: DrawingPath.allCases)
    func drawsTheField(_ path: DrawingPath) throws {
        let clip = try Fixtures.path(.interlacedTFF)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-deinterlace-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let oracle = folder.appendingPathComponent("bwdif-25.png").path
        let drawn = folder.appendingPathComponent("drawn.png").path
        // SD without colour tags: BT.601, limited, H.264's left-sited chroma; 720×576 at 16:9
        // is 1024×576, which the window shows at 896×504.
        try PictureOracle.convert(clip, frame: 25, .init(matrix: "bt601", range: "tv", chromaPosition: .left,
                                                         displaySize: "896:504"),
                                  filters: "bwdif=mode=send_field", to: oracle)
        try Self.shared[path]!.picture(of: clip, width: 896, height: 504, name: "deinterlaced") { _, png in
            try FileManager.default.copyItem(atPath: png, toPath: drawn)
        }
        let psnr = try PictureOracle.psnr(drawn, oracle)
        print("PSNR \(path) deinterlaced vs FFmpeg's bwdif field 25: \(String(format: "%.2f", psnr)) dB")
        #expect(psnr >= MovieRendererTests.threshold, "\(path): \(psnr) dB")
    }

    @Test("reel --report says bwdif is on, at 50 pictures a second, with the field order")
    func report() throws {
        let clip = try Fixtures.path(.interlacedBFF)
        try ControlsTests.desktops.use { desktop in
            let output = try Command.run([ReelApp.binary, "--report", "--exit-after", "0", clip],
                                         environment: desktop.environment).output
            let said = DrawingPathTests.reported(output, "deinterlacing")
            let on = try #require(said.first { $0["active"] as? Bool == true }, "no deinterlacing reported: \(output)")
            #expect(on["mode"] as? String == "auto")
            #expect(on["filter"] as? String == "bwdif")
            #expect(on["pictures_per_second"] as? Double == 50)
            #expect(on["field_order"] as? String == "bff")
        }
    }
}
