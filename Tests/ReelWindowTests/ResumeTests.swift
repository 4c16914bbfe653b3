import Foundation
import ReelTestSupport
import Testing

/// Resume where you left, across restarts of the real binary: the position comes back with a
/// Start Over offer, and a moved copy of the file is still recognised. (Played to the end and
/// damaged histories are the playback session's rules: ReelUnitTests.)
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Resume where you left", .serialized)
struct ResumeTests {
    /// The elapsed-time label (the leftmost time in the controls), in seconds.
    static func elapsed(_ app: ReelApp) throws -> Double? {
        let labels = try app.accessibleTree().filter {
            $0.role == "label" && $0.name.range(of: #"^\d+(:\d\d)+$"#, options: .regularExpression) != nil
        }
        guard let first = labels.min(by: { $0.x < $1.x }) else { return nil }
        return first.name.split(separator: ":").compactMap { Double($0) }.reduce(0) { $0 * 60 + $1 }
    }

    static func waitForElapsed(_ app: ReelApp, _ what: String, _ range: ClosedRange<Double>) throws {
        var seen: [Double] = []
        do {
            try Desktop.wait(what, log: app.log, timeout: 15) {
                guard let t = try elapsed(app) else { return false }
                seen.append(t)
                return range.contains(t)
            }
        } catch {
            Issue.record("\(what): the elapsed time read \(seen)")
            throw error
        }
    }

    static func notice(_ app: ReelApp) throws -> String? {
        try app.accessibleTree().first { $0.role == "label" && ($0.name.hasPrefix("Resumed") || $0.name.hasPrefix("Resume")) }?.name
    }

    @Test("Reopened, a film resumes where it was left, offering to start over; a moved copy resumes too")
    func resumesAcrossRestarts() throws {
        try SharedDesktop.standard.use { desktop in
            let clip = try Fixtures.path(.longSmall)
            // Left while playing (closing the player must not count as going back to the start).
            var app = try ReelApp(on: desktop, arguments: [clip])
            try app.element(named: "Pause")
            try desktop.run(["playerctl", "--player=reel", "position", "31.5"])
            try Self.waitForElapsed(app, "the seek to 31.5 s", 31...33)
            app.stop()   // SIGTERM: quits as Quit does

            app = try ReelApp(on: desktop, arguments: ["--paused", clip])
            try Self.waitForElapsed(app, "resuming at about 32 s", 31...36)
            var text: String?
            try Desktop.wait("the resume notice", log: app.log) { text = try Self.notice(app); return text != nil }
            #expect(text?.hasPrefix("Resumed from 0:3") == true, "notice: \(text ?? "")")
            try app.click(try app.element(named: "Start Over"))
            try Self.waitForElapsed(app, "starting over", 0...0.9)
            // Now near the start: nothing worth keeping any more.
            try desktop.run(["playerctl", "--player=reel", "position", "40"])
            try Self.waitForElapsed(app, "the seek to 40 s", 40...41)
            app.stop()

            // The same film under another name elsewhere resumes as well.
            let moved = desktop.home.appendingPathComponent("renamed film.mp4").path
            try FileManager.default.copyItem(atPath: clip, toPath: moved)
            app = try ReelApp(on: desktop, arguments: ["--paused", moved])
            defer { app.stop() }
            try Self.waitForElapsed(app, "resuming the moved copy at 40 s", 40...41)
        }
    }

    @Test("With the resume notice up and the controls shown, a click on the scrubber lands where it points: the notice lies above, out of the way")
    func scrubberClickDuringNotice() throws {
        try SharedDesktop.standard.use { desktop in
            let clip = try Fixtures.path(.longSmall)
            var app = try ReelApp(on: desktop, arguments: [clip])
            try app.element(named: "Pause")
            try desktop.run(["playerctl", "--player=reel", "position", "20"])
            try Self.waitForElapsed(app, "the seek to 20 s", 20...22)
            app.stop()

            // Reopened paused (the position stays where the click puts it): it resumes at 0:20
            // and says so, for 8 s, with Start Over.
            app = try ReelApp(on: desktop, arguments: ["--paused", clip])
            defer { app.stop() }
            try Self.waitForElapsed(app, "resuming at about 20 s", 19...23)
            let movie = try app.element(named: "Video")
            try app.element(named: "Start Over")
            // Reaching for the scrubber, as a person does, to 65 % of it (39 s of the 60).
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height / 2)
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height - 30)
            let bar = try app.element(named: "Position", role: "slider")
            let x = bar.x + Int((Double(bar.width) * 0.65).rounded()), y = bar.y + bar.height / 2
            try desktop.glide(to: x, y, steps: 3)
            // The notice is still up as the click comes (else this would prove nothing), and
            // it lies in the upper half of the picture, away from the controls and subtitles.
            let tree = try app.accessibleTree()
            let notice = try #require(tree.first { $0.role == "label" && $0.name.hasPrefix("Resumed from") },
                                      "the notice went before the click")
            #expect(notice.y + notice.height < movie.y + movie.height / 2, "the notice \(notice) lies low over the picture \(movie)")
            try desktop.click(x, y)
            var seen: [Double] = []
            do {
                try Desktop.wait("the click to land at 65 % of the scrubber", log: app.log, timeout: 15) {
                    let position = Double(try MPRISTests.playerctl(desktop, ["position"])) ?? -1
                    if seen.last != position { seen.append(position) }
                    return (36...42).contains(position)
                }
            } catch {
                Issue.record("after a click at 65 % of \(bar), with the notice \(notice) up, the position read \(seen)")
                throw error
            }
        }
    }
}
