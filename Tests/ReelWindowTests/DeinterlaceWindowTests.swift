import Foundation
import ReelTestSupport
import Testing

/// Deinterlacing as a person meets it in the window: the info card says it is on, `d` cycles
/// auto → on → off with a billboard, and the picture's menu item names the mode now; `--report`
/// says it too.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Deinterlacing in the window", .serialized)
struct DeinterlaceWindowTests {
    @Test("The info card says bwdif is on; d cycles the mode, and the billboard and the picture's menu follow")
    func keyMenuAndCard() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .interlacedTFF)
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
