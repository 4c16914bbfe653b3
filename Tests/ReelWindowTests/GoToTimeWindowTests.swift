import Foundation
import ReelTestSupport
import Testing

/// Go to Time as a person uses it: Ctrl+J, type, Enter. A frame number and a time land on
/// exactly their frame (the picture drawn is FFmpeg's conversion of that frame, closer to it
/// than to either neighbour); text it cannot read, or a time past the end, gets the reason in
/// the dialog and nothing moves.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Go to Time in the window", .serialized)
struct GoToTimeWindowTests {
    static func openDialog(_ s: ControlsTests.Session) throws {
        try s.desktop.key("ctrl+j")
        try s.app.waitForElement("the Go to Time dialog's entry") { $0.role == "text" && $0.name.hasPrefix("Time") }
    }

    static func type(_ s: ControlsTests.Session, _ text: String) throws {
        try s.desktop.key("ctrl+a")
        try s.desktop.xdotool(["type", "--delay", "30", text])
        try s.desktop.key("Return")
    }

    static func closed(_ s: ControlsTests.Session) throws {
        try s.app.waitForTree("the Go to Time dialog closed") { tree in !tree.contains { $0.role == "text" && $0.name.hasPrefix("Time") } }
    }

    /// Which of frames `index − 1 … index + 1` the window shows: FFmpeg's conversion of each,
    /// compared with the picture as drawn, nearest first.
    static func shownFrame(_ s: ControlsTests.Session, around index: Int, clip: String, name: String) throws -> (frame: Int, psnr: Double) {
        let drawn = try s.app.savePicture(width: 640, height: 360, name: name)
        let scores = try (index - 1...index + 1).map { i -> (Int, Double) in
            let oracle = s.desktop.home.appendingPathComponent("\(name)-ffmpeg-\(i).png").path
            try PictureOracle.convert(clip, frame: i, PictureShapeWindowTests.conversion, to: oracle)
            return (i, try PictureOracle.psnr(drawn, oracle))
        }
        print("Go to Time \(name): \(scores.map { "frame \($0.0) \(String(format: "%.2f", $0.1)) dB" }.joined(separator: ", "))")
        let best = scores.max { $0.1 < $1.1 }!
        return (best.0, best.1)
    }

    @Test("A frame number and a time land on their frames; bad text and a time past the end are refused")
    func goes() throws {
        let clip = try Fixtures.path(.letterboxed)
        try ControlsTests.desktops.use { desktop in
            PictureShapeWindowTests.forget(on: desktop)
            defer { PictureShapeWindowTests.forget(on: desktop) }
            let s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .letterboxed,
                                              settings: ["hide-controls-while-paused=true"])
            let movie = try PictureShapeWindowTests.settled(s)
            try s.desktop.click(movie.x + 5, movie.y + movie.height / 2)   // focus the window

            try Self.openDialog(s)
            try Self.type(s, "#37")
            try Self.closed(s)
            var shown = try Self.shownFrame(s, around: 37, clip: clip, name: "frame-37")
            #expect(shown.frame == 37 && shown.psnr >= MovieRendererTests.threshold, "#37 shows frame \(shown.frame), \(shown.psnr) dB")

            try Self.openDialog(s)
            try Self.type(s, "1:70")
            try s.app.waitForElement("the reason under the entry") {
                $0.role == "label" && $0.name.hasPrefix("“1:70” is not a time")
            }
            try Self.type(s, "0:05")
            try s.app.waitForElement("the length under the entry") { $0.role == "label" && $0.name == "It is only 0:02 long" }
            try s.desktop.key("Escape")
            try Self.closed(s)
            shown = try Self.shownFrame(s, around: 37, clip: clip, name: "refused")
            #expect(shown.frame == 37, "after refused text the picture moved to frame \(shown.frame)")

            try Self.openDialog(s)
            try Self.type(s, "0:01.2")
            try Self.closed(s)
            shown = try Self.shownFrame(s, around: 30, clip: clip, name: "time-1.2")
            #expect(shown.frame == 30 && shown.psnr >= MovieRendererTests.threshold, "0:01.2 shows frame \(shown.frame), \(shown.psnr) dB")
        }
    }
}
