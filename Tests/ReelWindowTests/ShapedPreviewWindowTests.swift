import Foundation
import ReelTestSupport
import Testing

/// The hover preview follows the picture's shape, as a person shapes it (Ctrl+R, the picture's
/// menu), on both drawing paths: the card's picture is FFmpeg's `transpose`, `hflip` or `crop`
/// of the key frame, scaled as the previews scale (libswscale, bicubic), and its aspect is the
/// shaped picture's (Save Picture's size). A shape changed while the card shows reaches it
/// without moving the pointer.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Hover preview in the picture's shape", .serialized)
struct ShapedPreviewWindowTests {
    /// A preview that matches FFmpeg's picture scores well above this; the unshaped picture
    /// (or the wrong way round) far below it.
    static let samePicture = 30.0
    /// Where the pointer hovers: 0.2 s into the 2 s clip, nearest the key frame at 0 (frame 0).
    static let fraction = 0.1

    /// The scrubber, once the controls are up.
    static func scrubber(_ s: ControlsTests.Session) throws -> AccessibleNode {
        try s.app.element(named: "Position", role: "slider")
    }

    /// The pointer onto the picture (which shows the controls), then onto the scrubber at `fraction`.
    static func hover(_ s: ControlsTests.Session, movie: AccessibleNode) throws {
        try s.desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height / 2)
        try s.desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height - 30)
        let bar = try scrubber(s)
        try s.desktop.glide(to: bar.x + Int((Double(bar.width) * fraction).rounded()), bar.y + bar.height / 2, steps: 3)
        try s.app.waitForElement("the preview card") { $0.name.hasPrefix("Preview at ") && $0.states.contains("visible") }
    }

    /// FFmpeg's picture of frame 0 as a `node`-sized preview: `before` on the decoded frame,
    /// scaled to `scaled` ("W:H", before any turn) as the previews are, `after` on the RGB, then
    /// cut inside the rounded corners as `PreviewTests.cardPicture` cuts the screen.
    static func oracle(_ clip: String, before: String? = nil, scaled: String, after: String? = nil,
                       node: AccessibleNode, to png: String) throws -> String {
        let scale = "scale=\(scaled):flags=bicubic+accurate_rnd+full_chroma_int:in_h_chr_pos=0:in_v_chr_pos=128,format=rgb24"
        let filters = ["select=eq(n\\,0)", before, scale, after, "crop=\(node.width - 12):\(node.height - 12):6:6"]
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", clip,
                         "-vf", filters.compactMap { $0 }.joined(separator: ","), "-fps_mode", "passthrough",
                         "-frames:v", "1", png])
        return png
    }

    /// The shaped picture's aspect, from Save Picture (which keeps the shape).
    static func shapedAspect(_ s: ControlsTests.Session, name: String) throws -> Double {
        var size = (width: 0, height: 0)
        _ = try s.app.saveSettledPicture("the shaped picture saved", name: name, timeout: 40) { got, _ in
            size = got
            return true
        }
        return Double(size.width) / Double(size.height)
    }

    /// The card's picture, settled and accepted, against FFmpeg's shaped and unshaped pictures;
    /// and its aspect against the shaped picture's.
    static func check(_ s: ControlsTests.Session, _ path: DrawingPath, _ step: String, clip: String,
                      accept: @escaping (AccessibleNode, Data) throws -> Bool,
                      oracle: (AccessibleNode) throws -> String, unshaped: (AccessibleNode) throws -> String) throws -> Data {
        let (png, node) = try PreviewTests.cardPicture(s.app, on: s.desktop, "preview-\(step)", accept: accept)
        let right = try PictureOracle.psnr(png, try oracle(node))
        let wrong = try PictureOracle.psnr(png, try unshaped(node))
        print("PSNR \(path) preview \(step): \(String(format: "%.2f", right)) dB (unshaped \(String(format: "%.2f", wrong)) dB) at \(node.width)x\(node.height)")
        #expect(right >= samePicture, "\(path), \(step): \(right) dB against FFmpeg's shaped key frame")
        #expect(wrong < right - 6, "\(path), \(step): the unshaped picture passes too (\(wrong) dB, shaped \(right) dB)")
        let aspect = try shapedAspect(s, name: "saved-\(step)")
        #expect(abs(Double(node.width) - Double(node.height) * aspect) <= 1,
                "\(path), \(step): the preview is \(node.width)×\(node.height), the picture's aspect \(aspect)")
        return FileManager.default.contents(atPath: png) ?? Data()
    }

    @Test("Turned, mirrored and cropped, the preview shows FFmpeg's picture of it in the picture's aspect",
          arguments: DrawingPath.allCases)
    func shaped(_ path: DrawingPath) throws {
        let clip = try Fixtures.path(.letterboxed)
        try ControlsTests.desktops.use { desktop in
            PictureShapeWindowTests.forget(on: desktop)
            defer { PictureShapeWindowTests.forget(on: desktop) }
            let s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .letterboxed, settings: [ControlsTests.readableMessages], environment: path.environment)
            let movie = try PictureShapeWindowTests.settled(s)
            try s.desktop.click(movie.x + 5, movie.y + movie.height / 2)   // focus the window
            try Self.hover(s, movie: movie)
            let (plain, _) = try PreviewTests.cardPicture(s.app, on: s.desktop, "preview-plain") { node, _ in node.width > node.height }

            // Ctrl+R with the card up: it turns where it is, the pointer still on the scrubber.
            try s.desktop.key("ctrl+r")
            try s.app.waitForElement("the billboard saying the turn") { $0.role == "label" && $0.name == "Rotation 90°" }
            _ = try Self.check(s, path, "turned", clip: clip, accept: { node, _ in node.height > node.width },
                               oracle: { try Self.oracle(clip, scaled: "\($0.height):\($0.width)", after: "transpose=clock", node: $0,
                                                         to: desktop.home.appendingPathComponent("turned-oracle.png").path) },
                               unshaped: { try Self.oracle(clip, scaled: "\($0.width):\($0.height)", node: $0,
                                                           to: desktop.home.appendingPathComponent("turned-unshaped.png").path) })

            // Back, and mirrored from the picture's menu; hovered again after the menu.
            try s.desktop.key("ctrl+shift+r")
            try PictureShapeWindowTests.menu(s, "m")
            try s.app.waitForElement("the billboard saying mirrored") { $0.role == "label" && $0.name == "Mirrored" }
            try Self.hover(s, movie: movie)
            let plainPixels = FileManager.default.contents(atPath: plain)
            _ = try Self.check(s, path, "mirrored", clip: clip, accept: { node, data in node.width > node.height && data != plainPixels },
                               oracle: { try Self.oracle(clip, scaled: "\($0.width):\($0.height)", after: "hflip", node: $0,
                                                         to: desktop.home.appendingPathComponent("mirrored-oracle.png").path) },
                               unshaped: { try Self.oracle(clip, scaled: "\($0.width):\($0.height)", node: $0,
                                                           to: desktop.home.appendingPathComponent("mirrored-unshaped.png").path) })

            // Not mirrored; the black bars cropped once the scan has found them.
            try PictureShapeWindowTests.menu(s, "m")
            try s.app.waitForElement("the billboard saying not mirrored") { $0.role == "label" && $0.name == "Not mirrored" }
            try PictureShapeWindowTests.awaitOffer(s)
            try PictureShapeWindowTests.menu(s, "b")
            try s.app.waitForElement("the billboard saying cropped") { $0.role == "label" && $0.name == "Black bars cropped" }
            try Self.hover(s, movie: movie)
            _ = try Self.check(s, path, "cropped", clip: clip, accept: { node, _ in node.width > 2 * node.height },
                               oracle: { try Self.oracle(clip, before: "crop=640:268:0:46", scaled: "\($0.width):\($0.height)", node: $0,
                                                         to: desktop.home.appendingPathComponent("cropped-oracle.png").path) },
                               unshaped: { try Self.oracle(clip, scaled: "\($0.width):\($0.height)", node: $0,
                                                           to: desktop.home.appendingPathComponent("cropped-unshaped.png").path) })
        }
    }
}
