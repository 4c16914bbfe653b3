import Foundation
@testable import ReelApp
import ReelEngine
import ReelGtk

/// A session over a recorder, with its state (queue, positions) in a folder of its own that
/// later sessions can share, as restarts of Reel share the user's state folder. What the
/// player says reaches it as in the window: its events go into a real player model, which the
/// session follows.
/// Threading: main thread only.
@MainActor
struct SessionBench {
    let folder: URL
    let player = PlayerRecorder()
    let model = PlayerModel()
    let settings: FixedSettings
    let session: PlaybackSession
    private let following: ObservationToken
    /// What the resume history warned about.
    let warnings: Warnings
    /// The session's clock, moved by the test.
    let clock: TestClock

    /// Threading: main thread only.
    final class Warnings { var messages: [String] = [] }
    /// Threading: main thread only.
    final class TestClock { var now = Date(timeIntervalSince1970: 1_000_000) }

    init(folder: URL, settings: FixedSettings = FixedSettings()) {
        self.folder = folder
        self.settings = settings
        let warnings = Warnings(), clock = TestClock()
        self.warnings = warnings
        self.clock = clock
        let session = PlaybackSession(player: player, model: model, window: player, settings: settings,
                                      queueStore: QueueStore(directory: folder),
                                      history: ResumeHistory(directory: folder) { warnings.messages.append($0) },
                                      now: { clock.now })
        self.session = session
        following = model.observe { [weak session] change in session?.follow(change) }
    }

    /// The player says `event`: the model takes it in and the session follows.
    func feed(_ event: PlayerEvent) { model.apply(event) }

    /// The player's state moves to `state`.
    func state(_ state: PlayerState) { feed(.stateChanged(from: model.state, to: state)) }

    /// The player reports where it is, in media of `duration` seconds.
    func time(_ position: Double, of duration: Double?) { feed(.time(position: position, duration: duration)) }

    /// The same user's state, in a new run of Reel.
    func restarted() -> SessionBench { SessionBench(folder: folder, settings: settings) }

    static func newFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A file with content of its own (the resume history knows files by their content).
    static func mediaFile(_ name: String, in folder: URL, bytes: Int = 3 << 20) throws -> String {
        let url = folder.appendingPathComponent(name)
        var generator = SystemRandomNumberGenerator()
        let data = Data((0..<bytes / 8).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64, Array.init) })
        try data.write(to: url)
        return url.path
    }
}
