import Foundation
import ReelTestSupport
import Testing

/// Turning, mirroring, cropping the black bars, zooming to fill, the aspect and a reset, as a
/// person does them (keys, and the picture's menu from the keyboard), on both drawing paths:
/// each picture drawn is FFmpeg's `transpose`, `hflip`, `crop` and `scale` of the same frame.
/// And what is kept for the file: its turn, but not its zoom.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Picture shape in the window", .serialized)
struct PictureShapeWindowTests {
    /// The letterboxed fixture is untagged SD: BT.601, limited range, H.264's left-sited chroma.
    static let conversion = PictureOracle.Conversion(matrix: "bt601", range: "tv", chromaPosition: .left)

    /// One step and what FFmpeg does to frame 0 for it (`W`, `H`: the size drawn).
    /// Threading: a value type.
    struct Step: CustomStringConvertible, Sendable {
        let description: String
        let act: @Sendable (ControlsTests.Session) throws -> Void
        /// The billboard's words after it, as a screen reader reads them.
        let says: String
        /// FFmpeg's way to the same picture: filters on the decoded frame, the size to convert
        /// it to RGB at (libswscale, bilinear, as the drawing paths scale), filters on the RGB.
        let oracle: @Sendable (_ width: Int, _ height: Int) -> (before: String?, size: String, after: String?)
        /// The shape of what is drawn: portrait, or wider than 2:1, or as wide as the view.
        let accept: @Sendable (_ width: Int, _ height: Int) -> Bool
    }

    /// Picks an item of the Picture submenu of the picture's menu by its mnemonic.
    static func menu(_ s: ControlsTests.Session, _ mnemonic: String) throws {
        try openPictureMenu(s)
        try s.desktop.key(mnemonic)
        try awaitClosed(s)
    }

    static func awaitClosed(_ s: ControlsTests.Session) throws {
        try s.app.waitForTree("the picture's menu closed") { tree in !tree.contains { $0.role == "menu item" && $0.name == "Mirror" } }
    }

    /// The picture where it is once the window has taken the clip's size (it opens at its
    /// default size first): clicks aimed at the first place it had would miss it.
    static func settled(_ s: ControlsTests.Session) throws -> AccessibleNode {
        var movie = s.movie
        try Desktop.wait("the window at the clip's 640×360") {
            movie = try s.app.element(named: "Video")
            return movie.width == 640 && movie.height == 360
        }
        return movie
    }

    /// Opens the Picture submenu of the picture's menu from the keyboard (Shift+F10, as
    /// GTK's context menus open).
    static func openPictureMenu(_ s: ControlsTests.Session) throws {
        try s.desktop.key("shift+F10")
        try s.app.waitForElement("the Picture submenu in the picture's menu") { $0.role == "menu item" && $0.name == "Picture" }
        try s.desktop.key("t")
        try s.app.waitForElement("Mirror in the Picture submenu") { $0.role == "menu item" && $0.name == "Mirror" }
    }

    static let steps: [Step] = [
        Step(description: "Ctrl+R turns it a quarter clockwise", act: { try $0.desktop.key("ctrl+r") }, says: "Rotation 90°",
             oracle: { w, h in (nil, "\(h):\(w)", "transpose=clock") }, accept: { w, h in w < h }),
        Step(description: "Ctrl+Shift+R turns it back; Mirror in the menu mirrors it",
             act: { s in try s.desktop.key("ctrl+shift+r"); try menu(s, "m") }, says: "Mirrored",
             oracle: { w, h in (nil, "\(w):\(h)", "hflip") }, accept: { w, h in w > h && w < 2 * h }),
        Step(description: "Mirror again, then Crop Black Bars shows the 2.39:1 picture inside them",
             act: { s in
                 try menu(s, "m")
                 // Offered once the bars are found (a scan of key frames in the background).
                 try s.app.waitForElement("the billboard saying not mirrored") { $0.role == "label" && $0.name == "Not mirrored" }
                 try awaitOffer(s)
                 try menu(s, "b")
             }, says: "Black bars cropped",
             oracle: { w, h in ("crop=640:268:0:46", "\(w):\(h)", nil) }, accept: { w, h in w > 2 * h }),
        Step(description: "w zooms the cropped picture to fill the view: its sides are cut",
             act: { try $0.desktop.key("w") }, says: "Zoom to fill",
             // The cropped picture scaled to the view's height, its middle as wide as the view.
             oracle: { w, h in ("crop=640:268:0:46", "\(Int((640.0 * Double(h) / 268).rounded())):\(h)", "crop=\(w):\(h)") }, accept: { w, h in w < 2 * h }),
        Step(description: "Alt+Backspace puts it all back", act: { try $0.desktop.key("alt+BackSpace") }, says: "Picture reset",
             oracle: { w, h in (nil, "\(w):\(h)", nil) }, accept: { w, h in w > h && w < 2 * h }),
        Step(description: "Shift+A twice shows it at 4:3", act: { try $0.desktop.key("shift+a", "shift+a") }, says: "Aspect ratio: 4:3",
             oracle: { w, h in (nil, "\(w):\(h)", nil) }, accept: { w, h in abs(Double(w) / Double(h) - 4.0 / 3) < 0.01 }),
    ]

    /// Crop Black Bars turns sensitive once the scan has found the bars: the Picture submenu
    /// is opened until it is, and closed (back to the picture's menu, then away) each time.
    static func awaitOffer(_ s: ControlsTests.Session) throws {
        try Desktop.wait("Crop Black Bars offered", timeout: 30) {
            try openPictureMenu(s)
            let offered = try s.app.accessibleTree().contains {
                $0.role == "menu item" && $0.name == "Crop Black Bars" && $0.states.contains("sensitive")
            }
            try s.desktop.key("Escape", "Escape")
            try awaitClosed(s)
            return offered
        }
    }

    /// Forgets what earlier cases kept for the fixture (the desktop's state outlives a case).
    static func forget(on desktop: Desktop) {
        try? FileManager.default.removeItem(at: desktop.home.appendingPathComponent("state/reel/pictures.json"))
    }

    @Test("Each step draws FFmpeg's picture of it, and the billboard says what it did", arguments: DrawingPath.allCases)
    func steps(_ path: DrawingPath) throws {
        let clip = try Fixtures.path(.letterboxed)
        try ControlsTests.desktops.use { desktop in
            Self.forget(on: desktop)
            defer { Self.forget(on: desktop) }
            let s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .letterboxed,
                                              settings: [ControlsTests.readableMessages, "hide-controls-while-paused=true"], environment: path.environment)
            let movie = try Self.settled(s)
            try s.desktop.click(movie.x + 5, movie.y + movie.height / 2)   // focus the window
            for (i, step) in Self.steps.enumerated() {
                try step.act(s)
                try s.app.waitForElement("the billboard after \(step)") { $0.role == "label" && $0.name == step.says }
                var size = (width: 0, height: 0)
                let drawn = try s.app.saveSettledPicture("the picture after \(step)", name: "shape-\(i)", timeout: 40) { got, _ in
                    size = got
                    return step.accept(got.width, got.height)
                }
                let oracle = desktop.home.appendingPathComponent("shape-oracle-\(i).png").path
                let way = step.oracle(size.width, size.height)
                var conversion = Self.conversion
                conversion.displaySize = way.size
                try PictureOracle.convert(clip, frame: 0, conversion, filters: way.before, after: way.after, to: oracle)
                let psnr = try PictureOracle.psnr(drawn, oracle)
                print("PSNR \(path) \(step): \(String(format: "%.2f", psnr)) dB at \(size.width)x\(size.height)")
                #expect(psnr >= MovieRendererTests.threshold, "\(path), \(step): \(psnr) dB")
            }
        }
    }

    @Test("A file opens turned as it was left, but not zoomed")
    func remembered() throws {
        try ControlsTests.desktops.use { desktop in
            Self.forget(on: desktop)
            defer { Self.forget(on: desktop) }
            var s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .letterboxed, settings: [ControlsTests.readableMessages])
            let movie = try Self.settled(s)
            try s.desktop.click(movie.x + 5, movie.y + movie.height / 2)
            try s.desktop.key("ctrl+r", "alt+equal")
            try s.app.waitForElement("the zoom's billboard") { $0.role == "label" && $0.name == "Zoom 107 %" }
            s.app.stop()
            s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .letterboxed, settings: [ControlsTests.readableMessages])
            _ = try s.app.saveSettledPicture("the picture opened again, turned and whole", name: "reopened", timeout: 40) { size, _ in
                // Upright 360×640 fitted whole: portrait, and no taller than the view (zoomed, it would overflow it).
                size.width < size.height && size.height <= 360 && abs(Double(size.width) / Double(size.height) - 360.0 / 640) < 0.01
            }
        }
    }

    @Test("Save Picture keeps the turn and the mirror, at the video's own size, and not the zoom")
    func saved() throws {
        let clip = try Fixtures.path(.letterboxed)
        try ControlsTests.desktops.use { desktop in
            Self.forget(on: desktop)
            defer { Self.forget(on: desktop) }
            let s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .letterboxed, settings: [ControlsTests.readableMessages])
            let movie = try Self.settled(s)
            try s.desktop.click(movie.x + 5, movie.y + movie.height / 2)
            try s.desktop.key("ctrl+r", "alt+equal")
            try s.app.waitForElement("the zoom's billboard") { $0.role == "label" && $0.name == "Zoom 107 %" }
            try Self.menu(s, "m")
            try s.desktop.key("ctrl+s")
            try s.app.element(named: "Save Picture")
            let saved = desktop.home.appendingPathComponent("shaped.png").path
            try s.desktop.key("ctrl+a")
            try s.desktop.xdotool(["type", "--delay", "20", saved])
            try s.desktop.key("Return")
            var size: (width: Int, height: Int)?
            try Desktop.wait("the picture file", timeout: 15) {
                size = FileManager.default.contents(atPath: saved).flatMap(PictureOracle.pngSize)
                return size != nil
            }
            #expect(size?.width == 360 && size?.height == 640, "saved \(String(describing: size)), not the turned 360x640")
            let oracle = desktop.home.appendingPathComponent("shaped-oracle.png").path
            try PictureOracle.convert(clip, frame: 0, Self.conversion, after: "transpose=clock,hflip", to: oracle)
            let psnr = try PictureOracle.psnr(saved, oracle)
            print("PSNR saved turned and mirrored picture: \(String(format: "%.2f", psnr)) dB")
            #expect(psnr >= 40, "\(psnr) dB")
        }
    }
}
