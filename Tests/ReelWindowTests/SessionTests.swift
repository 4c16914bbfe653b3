import Foundation
import ReelTestSupport
import Testing

/// Opening things: bad files end in a readable message with the window still usable, a second
/// launch hands its file to the running window, preferences apply at once and are kept.
@Suite("Opening and preferences", .serialized)
struct SessionTests {
    /// The desktop the tests take turns on, each from a clean slate.
    static let desktops = SharedDesktop()

    @Test("A broken file shows a readable error; the next file plays in the same window")
    func brokenThenGood() throws {
        try Self.desktops.use { desktop in
            let broken = Fixtures.directory.appendingPathComponent("window-broken.mp4").path
            try Data("this is not a video".utf8).write(to: URL(fileURLWithPath: broken))
            let app = try ReelApp(on: desktop, arguments: [broken])
            try app.element(named: "Cannot Play “window-broken.mp4”")
            let message = try app.waitForElement("the reason") { $0.name.contains("Not a media file") }
            // The message is on screen: light text where the picture would be black.
            let shot = try desktop.screenshot("error")
            let text = try ScreenImage.average(shot, x: message.x, y: message.y, width: message.width, height: message.height)
            #expect(text.r + text.g + text.b > 30, "no text drawn where the error is: \(text)")
            // A second launch with a good file: the running instance opens it.
            let second = try desktop.start([ReelApp.binary, try Fixtures.path(.solidRed)])
            try Desktop.wait("the second launch to hand over and exit", timeout: 20) { !Command.isRunning(second) }
            try Desktop.wait("the good file's title", timeout: 20) { app.title.hasPrefix("solid-red") }
            try app.element(named: "Pause")
            // The picture replaced the message: red where the message was.
            let movie = try app.element(named: "Video")
            try Desktop.wait("the picture instead of the message", timeout: 10) {
                let after = try desktop.screenshot("recovered")
                return try ScreenImage.average(after, x: movie.x + movie.width / 4, y: movie.y + movie.height / 3,
                                               width: movie.width / 2, height: movie.height / 3)
                    .distance(to: .init(r: 255, g: 0, b: 0)) < 40
            }
            #expect(app.isRunning)
        }
    }

    @Test("With nothing to open, the window invites you to open something")
    func welcome() throws {
        try Self.desktops.use { desktop in
            let app = try ReelApp(on: desktop)
            try app.element(named: "Open a Video")
            try app.waitForElement("the Open button") { $0.name.contains("Open a Video") && $0.role == "push button" }
            #expect(app.title == "Reel")
        }
    }

    /// `gsettings` on the desktop, with the schema the app compiled for itself.
    func gsettings(_ desktop: Desktop, _ arguments: [String]) throws -> String {
        let schemas = desktop.home.appendingPathComponent("cache/reel/schemas").path
        return try desktop.run(["env", "GSETTINGS_SCHEMA_DIR=\(schemas)", "gsettings"] + arguments).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("A preference changed elsewhere applies at once and is kept for the next run")
    func preferencesApplyAndPersist() throws {
        try Self.desktops.use { desktop in
            let clip = try Fixtures.path(.solidRed)
            var app: ReelApp? = try ReelApp(on: desktop, arguments: ["--paused", clip])
            try app!.element(named: "Total time")
            try Desktop.wait("the total to read 0:10", timeout: 10) {
                try app!.accessibleTree().contains { $0.role == "label" && $0.name == "0:10" }
            }
            _ = try gsettings(desktop, ["set", "io.github.reel.Reel", "show-remaining", "true"])
            try app!.element(named: "Time remaining")
            try app!.waitForElement("the remaining time") { $0.role == "label" && $0.name == "-0:10" }
            _ = try gsettings(desktop, ["set", "io.github.reel.Reel", "remaining-minus-sign", "false"])
            try app!.waitForElement("the remaining time without a sign") { $0.role == "label" && $0.name == "0:10" }
            app!.stop()
            app = nil
            let again = try ReelApp(on: desktop, arguments: ["--paused", clip])
            try again.element(named: "Time remaining")
            #expect(try gsettings(desktop, ["get", "io.github.reel.Reel", "show-remaining"]) == "true")
        }
    }

    @Test("Clicking the total time switches to the time remaining")
    func durationToggle() throws {
        try Self.desktops.use { desktop in
            let app = try ReelApp(on: desktop, arguments: ["--paused", try Fixtures.path(.solidRed)])
            let movie = try app.element(named: "Video")
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height - 30)
            let total = try app.element(named: "Total time")
            try Desktop.wait("the controls to show", timeout: 5) {
                let shot = try desktop.screenshot("toggle")
                return try ScreenImage.average(shot, x: total.x, y: total.y, width: total.width, height: total.height)
                    .distance(to: .init(r: 255, g: 0, b: 0)) > 60
            }
            try app.click(total)
            try app.element(named: "Time remaining")
        }
    }

    @Test("Ctrl+S saves the frame on screen at the video's own size, as FFmpeg converts that frame")
    func saveFrame() throws {
        try Self.desktops.use { desktop in
            let clip = try Fixtures.path(.longSmall)
            let app = try ReelApp(on: desktop, arguments: ["--paused", "--start", "2", clip])
            let movie = try app.element(named: "Video")
            try Desktop.wait("the frame at 2 s", timeout: 10) {
                try app.accessibleTree().contains { $0.role == "label" && $0.name == "0:02" }
            }
            try desktop.click(movie.x + 5, movie.y + 5)
            try desktop.key("ctrl+s")
            try app.element(named: "Save Picture")
            let saved = desktop.home.appendingPathComponent("saved frame.png").path
            // The name field has focus with the suggested name selected; a full path replaces it.
            try desktop.key("ctrl+a")
            try desktop.xdotool(["type", "--delay", "20", saved])
            try desktop.key("Return")
            // The whole file: the app may still be writing it.
            var size: (width: Int, height: Int)?
            try Desktop.wait("the picture file", timeout: 15) {
                size = FileManager.default.contents(atPath: saved).flatMap(PictureOracle.pngSize)
                return size != nil
            }
            #expect(size?.width == 320 && size?.height == 240, "saved \(String(describing: size)), not the video's 320x240")
            // 2 s into a 30 fps clip: frame 60. Unspecified matrix, limited range: BT.601, left-sited.
            let oracle = desktop.home.appendingPathComponent("oracle.png").path
            try PictureOracle.convert(clip, frame: 60, .init(matrix: "bt601", range: "tv", chromaPosition: .left, kernel: "bicubic"), to: oracle)
            let psnr = try PictureOracle.psnr(saved, oracle)
            print("PSNR saved frame vs FFmpeg frame 60: \(psnr) dB")
            #expect(psnr >= 40, "the saved picture is not frame 60 as FFmpeg converts it: \(psnr) dB")
            let neighbour = desktop.home.appendingPathComponent("neighbour.png").path
            try PictureOracle.convert(clip, frame: 61, .init(matrix: "bt601", range: "tv", chromaPosition: .left, kernel: "bicubic"), to: neighbour)
            #expect(try PictureOracle.psnr(saved, neighbour) < psnr, "frame 61 matches as well as frame 60")
            #expect(app.isRunning)
        }
    }
}
