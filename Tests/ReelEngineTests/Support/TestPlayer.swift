import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// A player with its events recorded, and waits that fail the test with a clear message
/// instead of hanging. Timeouts are generous: CI machines are small and shared.
/// Threading: use from one test at a time.
final class TestPlayer {
    let recorder = PlayerEventRecorder()
    let player: Player
    static let timeout: Double = 30

    init(audio: PlayerConfiguration.AudioOutputChoice = .null, hooks: PlayerHooks = PlayerHooks(),
         _ configure: (inout PlayerConfiguration) -> Void = { _ in }) {
        var configuration = PlayerConfiguration()
        configuration.audioOutput = audio
        // Remote media is cached under the fixtures, never in the home folder of whoever runs the tests.
        configuration.streamCache.directory = Fixtures.directory.appendingPathComponent("stream-cache/streams").path
        configure(&configuration)
        player = Player(configuration: configuration, hooks: hooks, events: recorder.sink)
    }

    deinit { player.close() }

    struct Timeout: Error, CustomStringConvertible {
        let what: String
        var description: String { "timed out waiting for \(what)" }
    }

    /// Opens `path` and waits until it is ready (or playing); throws the load error if it fails.
    func open(_ path: String, timeout: Double = TestPlayer.timeout) throws {
        let mark = recorder.count
        player.open(path)
        guard try recorder.waitUntilLoaded(from: mark, timeout: timeout) else { throw Timeout(what: "\(path) to load") }
    }

    /// Seeks and waits for the landing; returns the frame on screen.
    @discardableResult
    func seek(to target: Double, mode: SeekMode = .exact) throws -> VideoFrame? {
        let mark = recorder.count
        player.seek(to: target, mode: mode)
        guard recorder.wait(from: mark, timeout: TestPlayer.timeout, { event in
            if case .seekCompleted = event { return true }
            return false
        }) != nil else { throw Timeout(what: "seek to \(target)") }
        return player.currentFrame
    }

    /// Waits for the state machine to reach a state matching `match`, after event index `from`.
    @discardableResult
    func waitForState(from: Int = 0, timeout: Double = TestPlayer.timeout, _ what: String,
                      _ match: (PlayerState) -> Bool) throws -> PlayerState {
        guard let (state, _) = recorder.waitForState(from: from, timeout: timeout, match) else {
            throw Timeout(what: "\(what) (state now \(player.state))")
        }
        return state
    }

    /// Waits for an event matching `match` after index `from`.
    @discardableResult
    func waitFor(from: Int = 0, timeout: Double = TestPlayer.timeout, _ what: String,
                 _ match: (PlayerEvent) -> Bool) throws -> PlayerEvent {
        guard let (event, _) = recorder.wait(from: from, timeout: timeout, match) else { throw Timeout(what: what) }
        return event
    }

    /// Waits for the stream cache's report that the whole resource is on disk; returns its path.
    /// The cache's record on disk is brought up to date when a transfer ends, which can come
    /// after the player has read the last bytes and played to its end: read the cache after this.
    @discardableResult
    func waitForDownloadFinished(timeout: Double = TestPlayer.timeout) throws -> String {
        let event = try waitFor(timeout: timeout, "the download finished") {
            if case .downloadFinished = $0 { return true }
            return false
        }
        guard case .downloadFinished(let path) = event else { throw Timeout(what: "the download finished") }
        return path
    }

    var states: [PlayerState] {
        recorder.all.compactMap { if case .stateChanged(_, let to) = $0 { return to } else { return nil } }
    }
}
