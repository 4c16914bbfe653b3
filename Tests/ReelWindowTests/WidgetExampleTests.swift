import Foundation
import ReelTestSupport
import Testing

/// The player widget embedded in another program's plain window (reel-widget-example), at a
/// size that program chose: its own controls are there, named, and the picture plays.
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("The player widget in another window", .serialized)
struct WidgetExampleTests {
    @Test("In a plain 480×300 window the widget shows its controls and plays the file named on the command line")
    func playsEmbedded() throws {
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop, arguments: [try Fixtures.path(.longSmall), "480x300"],
                                  binary: ReelApp.built("reel-widget-example"), windowName: "Reel widget example")
            defer { app.stop() }
            // Playing: the play button reads Pause.
            try app.element(named: "Pause", timeout: 30)
            let video = try app.element(named: "Video")
            // The window keeps the size its program gave it (the picture does not resize it).
            let frame = try #require(try app.accessibleTree().first { $0.role == "frame" })
            #expect(frame.width == 480 && frame.height == 300, "the window is \(frame.width)×\(frame.height)")
            // The pointer over the picture brings the controls up: each is there, named, and within
            // the window (the bar fits the small player instead of running off its edge).
            try desktop.glide(to: video.x + video.width / 2, video.y + video.height - 30)
            let controls = ["Pause", "Rewind", "Fast forward", "Position", "Volume", "Fullscreen"]
            var missing: [String] = [], outside: [AccessibleNode] = []
            var tree: [AccessibleNode] = []
            do {
                try Desktop.wait("the widget's controls", log: app.log) {
                    tree = try app.accessibleTree()
                    let shown = tree.filter { controls.contains($0.name) && $0.states.contains("visible") && $0.width > 0 }
                    missing = controls.filter { name in !shown.contains { $0.name == name } }
                    outside = shown.filter { $0.x < frame.x || $0.x + $0.width > frame.x + frame.width
                        || $0.y < frame.y || $0.y + $0.height > frame.y + frame.height }
                    return missing.isEmpty && outside.isEmpty
                }
            } catch {
                Issue.record("missing \(missing), outside the window \(outside), in \(tree.map(\.description).joined(separator: "\n"))")
                throw error
            }
            // The picture moves on: the upper part of the picture (clear of the controls) changes.
            func picture(_ name: String) throws -> String {
                let shot = try desktop.screenshot(name)
                let crop = desktop.home.appendingPathComponent("\(name)-picture.png").path
                try desktop.run(["convert", shot, "-crop", "\(video.width / 2)x\(video.height / 3)+\(video.x + video.width / 4)+\(video.y + video.height / 8)",
                                 "+repage", crop])
                return crop
            }
            let first = try picture("first")
            var psnr = Double.infinity
            var shots = 0
            try Desktop.wait("the picture to change", log: app.log, timeout: 20) {
                shots += 1
                psnr = try PictureOracle.psnr(first, try picture("later-\(shots)"))
                return psnr < 30
            }
            #expect(psnr < 30, "the picture stayed the same (PSNR \(psnr) dB)")
        }
    }
}
