import Foundation
import ReelTestSupport
import Testing

/// Seeking by key with the controls hidden says where it went: the billboard over the picture
/// shows the new time and a slim bar of the whole media (mpv's OSD bar), as it does for the
/// volume and the speed. Read from the accessibility tree (the label, the bar's value) and the
/// screen, in the real window on the solid red clip.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Seek billboard", .serialized)
struct SeekBillboardTests {
    typealias Session = ControlsTests.Session

    /// "0:05 / 0:10": the billboard's time and the media's length, in seconds.
    static func seekLabel(_ tree: [AccessibleNode]) -> (time: Double, length: Double)? {
        for node in tree where node.role == "label" {
            let halves = node.name.components(separatedBy: " / ")
            guard halves.count == 2, let time = seconds(halves[0]), let length = seconds(halves[1]) else { continue }
            return (time, length)
        }
        return nil
    }

    static func seconds(_ text: String) -> Double? {
        guard text.range(of: #"^\d+(:\d\d)+$"#, options: .regularExpression) != nil else { return nil }
        return text.split(separator: ":").compactMap { Double($0) }.reduce(0) { $0 * 60 + $1 }
    }

    @Test("With the controls hidden, → and Home show the new time and a bar of the whole media over the picture")
    func keysShowTheSeek() throws {
        try ControlsTests.desktops.use { desktop in
            // The billboard stays while the tree is read (its going is ControlsTests' `messagesGo`).
            let s = try Session(on: desktop, settings: ["controls-display-duration=1.0", "message-display-duration=30.0"])
            try s.desktop.click(s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height / 3)   // focus the window
            try Desktop.wait("the tap to show the controls", timeout: 10) { try s.controlsShown("tap") }
            try Desktop.wait("them to fade", timeout: 10) { try !s.controlsShown("faded") }
            let before = try #require(try s.elapsed())

            try s.desktop.key("Right")
            var seek: (time: Double, length: Double)?
            let tree = try s.app.waitForTree("the billboard with the new time") { tree in
                seek = Self.seekLabel(tree)
                return seek != nil
            }
            let shown = try #require(seek)
            #expect(shown.length == 10, "the billboard names the length \(shown.length) s, not the clip's 10 s")
            // Five seconds on from where it was (or a second later: the label counts whole
            // seconds and playing went on while the key travelled).
            #expect(shown.time >= before + 4 && shown.time <= before + 7, "from \(before) s → shows \(shown.time) s")
            let bar = try #require(tree.first { $0.role == "progress bar" && $0.name == "Position in the video" },
                                   "no bar with the time: \(tree.filter { $0.role == "progress bar" })")
            let fraction = try #require(bar.value, "the bar has no value")
            #expect(abs(fraction - shown.time / 10) <= 0.15, "the bar stands at \(fraction) for \(shown.time) s of 10")
            // On screen: the billboard over the picture's middle is not the film's red.
            let shot = try s.desktop.screenshot("billboard")
            let middle = try ScreenImage.average(shot, x: bar.x, y: bar.y - 24, width: bar.width, height: 24 + bar.height)
            #expect(middle.distance(to: .init(r: 255, g: 0, b: 0)) > 60, "no billboard drawn where its bar is: \(middle)")
            #expect(try !s.controlsShown("while-billboard"), "the controls came up: the scrubber would say it, not the billboard")

            try s.desktop.key("Home")
            try s.app.waitForTree("the billboard at the start") { tree in
                Self.seekLabel(tree).map { $0.time <= 1 } ?? false
            }
        }
    }
}
