import Foundation
import ReelTestSupport
import Testing

/// Many-channel sound in the real window: 10-, 16- and 24-channel files (Opus, ambisonic
/// Opus, WAV, AAC in MPEG-TS, Matroska), and sound whose format changes mid-stream, each play
/// to their end with the window alive.
/// Threading: serialised; each file gets a desktop of its own.
@Suite("Many-channel sound in the window", .serialized)
struct ManyChannelWindowTests {
    // Each file in a window of its own on a desktop of its own, all at once: they spend their
    // time playing, not computing.
    @Test("Each many-channel file, and sound that changes from stereo to 5.1 to 44.1 kHz mid-stream, plays to its end in the window (every file at once)")
    func playsToTheEnd() throws {
        let names = ["mc-opus24", "mc-wav10", "mc-aac16-ts", "mc-opus16-ambisonic", "mc-mkv24-pcm"]
        var files = try names.map { name in
            Ending(path: try Fixtures.path(try #require(ManyChannelFixture.all.first { $0.spec.name == name }).spec),
                   seconds: "0:01")
        }
        // Three two-second parts: six seconds.
        files.append(Ending(path: try Fixtures.Spec.audioFormatChanges.path, seconds: "0:06"))
        let outcomes = AtOnce.map(files) { file in try Self.playToTheEnd(file) }
        for (file, outcome) in zip(files, outcomes) {
            do {
                print("\((file.path as NSString).lastPathComponent) at the end: \(try outcome.get())")
            } catch {
                Issue.record("\((file.path as NSString).lastPathComponent): \(error)")
            }
        }
    }

    /// A file and its whole length as the elapsed time shows it. Threading: a value type.
    struct Ending: Sendable {
        let path: String
        let seconds: String
    }

    /// Opens the file alone on a desktop of its own and waits for it to end by itself, its
    /// elapsed time reading its whole length, as the total does. Returns the labels and buttons
    /// seen last. Threading: any thread; everything it starts is its own.
    static func playToTheEnd(_ file: Ending) throws -> String {
        let desktop = try Desktop()
        let name = (file.path as NSString).lastPathComponent
        // The end state (title, play button, the time at the file's length) stays, so nothing
        // depends on catching a one-second item while it plays.
        let app = try ReelApp(on: desktop, arguments: [file.path])
        defer { app.stop() }
        var seen = "nothing"
        do {
            try Desktop.wait("\(name) played to its end", log: app.log, timeout: 30) {
                guard app.title.contains(name) else { return false }
                let tree = try app.accessibleTree()
                seen = tree.filter { $0.role == "label" || $0.role == "push button" }.map(\.name).joined(separator: " | ")
                // Stopped by itself (nothing here pauses it) at its end: the elapsed time (the
                // leftmost) reads the whole length.
                let times = tree.filter { $0.role == "label" && $0.name.range(of: #"^\d+:\d\d$"#, options: .regularExpression) != nil }
                guard let elapsed = times.min(by: { $0.x < $1.x }), times.count >= 2 else { return false }
                return tree.contains { $0.name == "Play" } && elapsed.name == file.seconds
            }
        } catch {
            throw Command.Failure(command: ["reel", name], result: .init(status: -1, stdout: Data(),
                stderr: Data("\(error)\nseen last: \(seen)".utf8)))
        }
        return seen
    }
}
