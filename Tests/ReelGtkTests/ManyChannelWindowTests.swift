import Foundation
import ReelTestSupport
import Testing

/// Many-channel sound in the real window: 10-, 16- and 24-channel files (Opus, ambisonic
/// Opus, WAV, AAC in MPEG-TS, Matroska), and sound whose format changes mid-stream, each play
/// to their end with the window alive.
/// Threading: serialised; each test owns its desktop.
@Suite("Many-channel sound in the window", .serialized)
struct ManyChannelWindowTests {
    @Test("Each many-channel file plays to its end in the window")
    func playsToTheEnd() throws {
        let names = ["mc-opus24", "mc-wav10", "mc-aac16-ts", "mc-opus16-ambisonic", "mc-mkv24-pcm"]
        let paths = try names.map { name in
            try Fixtures.path(try #require(ManyChannelFixture.all.first { $0.spec.name == name }).spec)
        }
        try Self.playEachToTheEnd(paths, seconds: "0:01")
    }

    @Test("Sound that changes from stereo to 5.1 to 44.1 kHz mid-stream plays to its end in the window")
    func formatChangesPlayToTheEnd() throws {
        // Three two-second parts: six seconds.
        try Self.playEachToTheEnd([try Fixtures.Spec.audioFormatChanges.path], seconds: "0:06")
    }

    /// Opens each file alone and waits for it to end by itself, its elapsed time reading its
    /// whole length (`seconds`), as the total does.
    static func playEachToTheEnd(_ paths: [String], seconds: String) throws {
        let desktop = try Desktop()
        for path in paths {
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
                // Stopped by itself (nothing here pauses it) at its end: the elapsed time (the
                // leftmost) reads the whole length.
                let times = tree.filter { $0.role == "label" && $0.name.range(of: #"^\d+:\d\d$"#, options: .regularExpression) != nil }
                guard let elapsed = times.min(by: { $0.x < $1.x }), times.count >= 2 else { return false }
                return tree.contains { $0.name == "Play" } && elapsed.name == seconds
            }
        }
    }
}
