import Foundation
import ReelTestSupport
import Testing

/// The video equalizer as a person uses it, on both drawing paths: mpv's keys `1`–`8` step
/// contrast, brightness, gamma and saturation (the billboard says the value), the Colours
/// submenu's sliders set the hue from the keyboard, and Reset Colours puts it all back. Each
/// picture drawn is FFmpeg's `eq`, `hue` or `lutrgb` of the same frame, as mpv means them.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Video equalizer in the window", .serialized)
struct EqualizerWindowTests {
    /// One step and FFmpeg's way to the same picture. Threading: a value type.
    struct Step: CustomStringConvertible, Sendable {
        let description: String
        let act: @Sendable (ControlsTests.Session) throws -> Void
        let before: String?
        let after: String?
    }

    /// Presses `key` `times` times, as a person tapping it.
    static func press(_ s: ControlsTests.Session, _ key: String, _ times: Int) throws {
        try s.desktop.xdotool(["key", "--delay", "20"] + Array(repeating: key, count: times))
    }

    /// Keys, then the billboard's words once the last press has been taken.
    static func keys(_ presses: [(String, Int)], says: String) -> @Sendable (ControlsTests.Session) throws -> Void {
        { s in
            for (key, times) in presses { try press(s, key, times) }
            try s.app.waitForElement("the billboard saying \(says)") { $0.role == "label" && $0.name == says }
        }
    }

    /// Opens Picture ▸ Colours in the picture's menu from the keyboard.
    static func openColours(_ s: ControlsTests.Session) throws {
        try PictureShapeWindowTests.openPictureMenu(s)
        try s.desktop.key("l")
        try s.app.waitForElement("the Hue slider in the Colours submenu") { isHue($0) }
    }

    /// The Hue slider of a menu that is open (GTK 4.8 gives AT-SPI no "showing" state).
    static func isHue(_ node: AccessibleNode) -> Bool {
        node.role == "slider" && node.name == "Hue" && node.states.contains("visible")
    }

    static func closeMenu(_ s: ControlsTests.Session) throws {
        try s.desktop.key("Escape", "Escape", "Escape")
        try s.app.waitForTree("the picture's menu closed") { tree in !tree.contains(where: isHue) }
    }

    static let steps: [Step] = [
        Step(description: "2 twenty times: contrast +20", act: keys([("2", 20)], says: "Contrast: +20"),
             before: EqualizerForms.contrast(1.2), after: nil),
        Step(description: "1 twenty times, then 8 thirty times: saturation +30",
             act: keys([("1", 20), ("8", 30)], says: "Saturation: +30"), before: "eq=saturation=1.3", after: nil),
        Step(description: "7 thirty times, then 4 ten times: brightness +10",
             act: keys([("7", 30), ("4", 10)], says: "Brightness: +10"), before: nil,
             after: EqualizerForms.brightness(10)),
        Step(description: "3 ten times, then 6 thirty times: gamma +30",
             act: keys([("3", 10), ("6", 30)], says: "Gamma: +30"), before: nil,
             after: EqualizerForms.gamma(30)),
        Step(description: "5 thirty times, then the Hue slider two pages up in Picture ▸ Colours: hue +20",
             act: { s in
                 try keys([("5", 30)], says: "Gamma: 0")(s)
                 try openColours(s)
                 // A popover's mnemonics need no Alt: h focuses the slider its label names.
                 try s.desktop.key("h", "Page_Up", "Page_Up")
                 try s.app.waitForElement("the Hue slider at 20") { isHue($0) && $0.value == 20 }
                 try closeMenu(s)
             }, before: EqualizerForms.hue(20), after: nil),
        Step(description: "Reset Colours in the same submenu puts the picture back",
             act: { s in
                 try openColours(s)
                 try s.desktop.key("r")
                 try s.app.waitForElement("the billboard saying the colours are reset") { $0.role == "label" && $0.name == "Colours reset" }
                 try s.app.waitForElement("the Hue slider back at 0") { isHue($0) && $0.value == 0 }
                 try closeMenu(s)
             }, before: nil, after: nil),
    ]

    @Test("Each step draws FFmpeg's picture of it, on either path and on GL ES", arguments: DrawingPath.withGLES)
    func steps(_ path: DrawingPath) throws {
        let clip = try Fixtures.path(.letterboxed)
        try ControlsTests.desktops.use { desktop in
            let s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .letterboxed,
                                              settings: [ControlsTests.readableMessages, "hide-controls-while-paused=true"], environment: path.environment)
            let movie = try PictureShapeWindowTests.settled(s)
            try s.desktop.click(movie.x + 5, movie.y + movie.height / 2)   // focus the window
            for (i, step) in Self.steps.enumerated() {
                try step.act(s)
                let drawn = try s.app.savePicture(width: 640, height: 360, name: "equalizer-\(i)")
                let oracle = desktop.home.appendingPathComponent("equalizer-oracle-\(i).png").path
                try PictureOracle.convert(clip, frame: 0, PictureShapeWindowTests.conversion, filters: step.before,
                                          after: step.after, to: oracle)
                let psnr = try PictureOracle.psnr(drawn, oracle)
                print("PSNR \(path) \(step): \(String(format: "%.2f", psnr)) dB")
                #expect(psnr >= MovieRendererTests.threshold, "\(path), \(step): \(psnr) dB")
            }
        }
    }
}
