import Foundation
import ReelTestSupport
import Testing

/// One order for what lies over the picture (player-view.ui lists it): the subtitles are part
/// of the picture, and the hover preview lies over them, readable. Judged from screenshots of
/// the real window: the card with a subtitle line passing behind it is the card without one.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("The order of overlays", .serialized)
struct OverlayOrderTests {
    /// Ten seconds of flat grey, 640×360 (the window opens 1:1), two key frames a second.
    static let canvas = Fixtures.Spec(name: "overlay-canvas", ext: "mp4", arguments: [
        "-f", "lavfi", "-i", "color=c=0x505050:s=640x360:r=25:d=10",
        "-c:v", "libx264", "-preset", "ultrafast", "-g", "12", "-pix_fmt", "yuv420p",
    ])

    /// `x`, `y`, `width`, `height` of `png` as a PNG of its own (equal pixels, equal files).
    static func crop(_ png: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int, to path: String) throws -> Data {
        try Command.run(["convert", png, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage",
                         "-strip", "-define", "png:exclude-chunks=date,time", path])
        return FileManager.default.contents(atPath: path) ?? Data()
    }

    @Test("The hover preview lies over a subtitle line: its pixels are those of the card without subtitles")
    func previewOverSubtitles() throws {
        try SharedDesktop.standard.use { desktop in
            let folder = desktop.home.appendingPathComponent("films").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let clip = folder + "/film.mp4"
            try? FileManager.default.removeItem(atPath: clip)
            try FileManager.default.copyItem(atPath: try Fixtures.path(Self.canvas), toPath: clip)
            // Wide enough to pass behind the card in the middle of the window.
            try "1\n00:00:00,000 --> 00:00:10,000\nA subtitle line that runs across the whole picture\n"
                .write(toFile: folder + "/film.srt", atomically: true, encoding: .utf8)
            // Paused (the controls stay up, and the subtitles are lifted over them, to the
            // height of the card's time and chapter).
            let app = try ReelApp(on: desktop, arguments: ["--paused", "--start", "2", clip])
            defer { app.stop() }
            let movie = try app.element(named: "Video")
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height / 2)
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height - 30)
            let bar = try app.element(named: "Position", role: "slider")
            try desktop.glide(to: bar.x + bar.width / 2, bar.y + bar.height / 2, steps: 3)

            /// The card (inside its rounded corners) and the strip beside it at the height of its
            /// lower half (where the lifted subtitle runs), once two screenshots agree.
            func look(_ name: String) throws -> (card: Data, beside: Data, node: AccessibleNode) {
                var previous: (Data, Data)?
                var result: (Data, Data, AccessibleNode)?
                try Desktop.wait("a settled card (\(name))", log: app.log, timeout: 20) {
                    let tree = try app.accessibleTree()
                    guard let card = tree.first(where: { $0.name.hasPrefix("Preview at ") && $0.states.contains("visible") }),
                          tree.contains(where: { $0.name == "Preview picture" && $0.states.contains("visible") && $0.width > 20 })
                    else { return false }
                    let shot = try desktop.screenshot("\(name)-screen")
                    let inside = try Self.crop(shot, card.x + 6, card.y + 6, card.width - 12, card.height - 12,
                                               to: desktop.home.appendingPathComponent("\(name)-card.png").path)
                    let left = max(movie.x, card.x - 120)
                    let beside = try Self.crop(shot, left, card.y + card.height / 2, card.x - left, card.height / 2,
                                               to: desktop.home.appendingPathComponent("\(name)-beside.png").path)
                    defer { previous = (inside, beside) }
                    result = (inside, beside, card)
                    return previous.map { $0.0 == inside && $0.1 == beside } ?? false
                }
                return result!
            }
            let with = try look("with-subtitles")
            try app.activate("subtitle-track", string: "off")
            var without = with
            try Desktop.wait("the subtitle line gone beside the card", log: app.log, timeout: 20) {
                without = try look("without-subtitles")
                return without.beside != with.beside
            }
            #expect(without.node.x == with.node.x && without.node.y == with.node.y, "the card moved: \(with.node) → \(without.node)")
            #expect(with.card == without.card,
                    "the subtitle line shows through the card \(with.node): compare with-subtitles-card.png and without-subtitles-card.png")
        }
    }
}
