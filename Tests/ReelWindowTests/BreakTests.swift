import Foundation
import ReelTestSupport
import Testing

/// A break (interstitial) in the real window: scheduled over D-Bus into the playing file, it
/// takes the picture's place with restricted controls (the scrubber shows the break's own
/// time and cannot be moved, no scanning), and the film goes on where it stopped.
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Breaks in the window", .serialized)
struct BreakTests {
    @Test("A break at 1 s: restricted controls while it plays, then the film goes on from 1 s")
    func breakInTheWindow() throws {
        try SharedDesktop.standard.use { desktop in
            // From 0.8 s: at the quarter speed below, the film reaches the break in under a second
            // instead of four; 0:00 or a time past the break's length after it still means the
            // film did not go on from 1 s.
            let app = try ReelApp(on: desktop, arguments: ["--paused", "--start", "0.8", try Fixtures.path(.longSmall)])
            defer { app.stop() }
            try app.element(named: "Play")
            try app.activate("schedule-break", string: "\(try Fixtures.path(Self.breakClip))@1")
            // The film at a quarter speed (the break keeps its own): reading the window takes
            // seconds on a busy machine, and the film must not run far meanwhile.
            try desktop.key("bracketleft", "bracketleft", "bracketleft", "bracketleft")
            try desktop.key("k")
            // The window while the break plays: the accessibility tree follows the widgets a moment
            // later on a busy machine, so the restricted state is awaited, not read once.
            var tree: [AccessibleNode] = []
            func restricted() -> Bool {
                guard let bar = tree.first(where: { $0.name == "Break" && $0.role == "slider" }),
                      !bar.states.contains("sensitive") else { return false }
                for name in ["Rewind", "Fast forward"] {
                    guard let button = tree.first(where: { $0.name == name && $0.role == "push button" }),
                          !button.states.contains("sensitive") else { return false }
                }
                return tree.contains { $0.name == "Break time remaining" }
            }
            do {
                try Desktop.wait("the break with restricted controls", log: app.log, timeout: 30) {
                    tree = try app.accessibleTree()
                    return restricted()
                }
            } catch {
                Issue.record("during the break: \(tree.filter { ["Break", "Position", "Rewind", "Fast forward"].contains($0.name) })")
                throw error
            }
            // The break's seconds pass; the film continues from where it stopped.
            try app.element(named: "Position", role: "slider", timeout: 40)
            let elapsed = try app.accessibleTree().filter { $0.role == "label" && $0.name.hasPrefix("0:") }.min { $0.x < $1.x }?.name
            #expect(elapsed == "0:01" || elapsed == "0:02", "after the break the film's time reads \(elapsed ?? "nothing")")
            try app.element(named: "Pause")
        }
    }

    /// Four seconds: long enough to be read while it plays on a busy machine (the film reaches
    /// the break under a second after play, and a look at the tree takes well under one), and
    /// no longer, since the test waits for the break to end.
    static let breakClip = Fixtures.Spec.video("break-4s", ext: "mp4", rate: "30", seconds: 4,
                                               codec: ["-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p"])
}
