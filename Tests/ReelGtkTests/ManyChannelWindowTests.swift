import Foundation
import ReelTestSupport
import Testing

/// Many-channel sound in the real window: 10-, 16- and 24-channel files (Opus, ambisonic
/// Opus, WAV, AAC in MPEG-TS, Matroska) each play to their end with the window alive.
/// Threading: serialised; each test owns its desktop.
@Suite("Many-channel sound in the window", .serialized)
struct ManyChannelWindowTests {
    @Test("Each many-channel file plays to its end in the window")
    func playsToTheEnd() throws {
        let names = ["mc-opus24", "mc-wav10", "mc-aac16-ts", "mc-opus16-ambisonic", "mc-mkv24-pcm"]
        let desktop = try Desktop()
        for name in names {
            let path = try Fixtures.path(try #require(ManyChannelFixture.all.first { $0.spec.name == name }).spec)
            let file = (path as NSString).lastPathComponent
            // One file at a time: the end state (title, play button, the time at the file's
            // length) stays, so nothing depends on catching a two-second item while it plays.
            let app = try ReelApp(on: desktop, arguments: [path])
            defer { app.stop() }
            var seen = "nothing"
            defer { print("\(file) at the end: \(seen)") }
            try Desktop.wait("\(file) played to its end", log: app.log, timeout: 30) {
                guard app.title.contains(file) else { return false }
                let tree = try app.accessibleTree()
                seen = tree.filter { $0.role == "label" || $0.role == "push button" }.map(\.name).joined(separator: " | ")
                // Stopped by itself (nothing here pauses it) past its first second: the elapsed
                // time (the leftmost) reads 0:01 or 0:02 of the 2.007 s.
                let times = tree.filter { $0.role == "label" && $0.name.range(of: #"^\d+:\d\d$"#, options: .regularExpression) != nil }
                guard let elapsed = times.min(by: { $0.x < $1.x }), times.count >= 2 else { return false }
                return tree.contains { $0.name == "Play" } && ["0:01", "0:02"].contains(elapsed.name)
            }
        }
    }
}
