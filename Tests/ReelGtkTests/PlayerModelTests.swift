import Foundation
@testable import ReelEngine
import ReelGtk
import Testing

/// The player view's model without a window: fed the player's events, it holds what they say
/// and tells its observers, each once per change and in the order they came; per-property
/// observers hear only their property; tokens end observations; one-off moments stay events.
/// Threading: main actor.
@Suite("Player model")
struct PlayerModelTests {
    /// Everything an observer saw, as text. Threading: main actor (the model's observers).
    final class Seen {
        var lines: [String] = []
    }

    @Test("Fed events, the model holds what they say and tells every observer once per change, in the order they came")
    func holdsAndTells() async {
        await MainActor.run {
            let model = PlayerModel()
            let seen = Seen()
            let first = model.observe { seen.lines.append("first \($0.state) \($0.position) \($0.duration ?? -1)") }
            let second = model.observe { seen.lines.append("second \($0.volume) \($0.isMuted) \($0.speed)") }
            model.apply(.stateChanged(from: .idle, to: .loading))
            model.apply(.stateChanged(from: .loading, to: .playing))
            model.apply(.time(position: 1, duration: 10))
            model.apply(.time(position: 1, duration: 10))   // nothing new: nobody is told
            model.apply(.volumeChanged(volume: 0.5, muted: true))
            model.apply(.speedChanged(1.5))
            model.apply(.speedChanged(1.5))
            #expect(seen.lines == [
                "first loading 0.0 -1.0", "second 1.0 false 1.0",
                "first playing 0.0 -1.0", "second 1.0 false 1.0",
                "first playing 1.0 10.0", "second 1.0 false 1.0",
                "first playing 1.0 10.0", "second 0.5 true 1.0",
                "first playing 1.0 10.0", "second 0.5 true 1.5",
            ])
            #expect(model.state == .playing && model.position == 1 && model.duration == 10)
            withExtendedLifetime((first, second)) {}
        }
    }

    @Test("A per-property observer hears only that property's changes; the controls' visibility is one")
    func perProperty() async {
        await MainActor.run {
            let model = PlayerModel()
            var positions: [Double] = [], visible: [Bool] = []
            let p = model.observe(\.position) { positions.append($0) }
            let v = model.observe(\.controlsVisible) { visible.append($0) }
            model.apply(.time(position: 1, duration: 10))
            model.apply(.volumeChanged(volume: 0.2, muted: false))
            model.apply(.time(position: 2, duration: 10))
            model.controlsVisible = true
            model.controlsVisible = true
            model.apply(.time(position: 2, duration: 11))
            model.controlsVisible = false
            #expect(positions == [1, 2])
            #expect(visible == [true, false])
            withExtendedLifetime((p, v)) {}
        }
    }

    @Test("Events reach their observers after the model took them in; one-off moments change nothing; a released token ends its observer")
    func eventsAndTokens() async {
        await MainActor.run {
            let model = PlayerModel()
            var heard: [String] = []
            var changes = 0
            var change: ObservationToken? = model.observe { _ in changes += 1 }
            let events = model.observeEvents { event in
                switch event {
                case .stateChanged(_, let to): heard.append("state \(to), model \(model.state)")
                case .playedToEnd: heard.append("played to end")
                default: heard.append("other")
                }
            }
            model.apply(.stateChanged(from: .idle, to: .ready))
            model.apply(.playedToEnd)
            model.apply(.warning(.noSoundServer(reason: "a warning")))
            #expect(heard == ["state ready, model ready", "played to end", "other"])
            #expect(changes == 1)
            change = nil
            model.apply(.stateChanged(from: .ready, to: .playing))
            #expect(changes == 1)
            events.cancel()
            model.apply(.stateChanged(from: .playing, to: .ready))
            #expect(heard.count == 4)
            _ = change
        }
    }

    @Test("Closing forgets the media's position, length and stream; the next item starts at 0; a break holds the position")
    func clearing() async {
        await MainActor.run {
            let model = PlayerModel()
            model.apply(.stateChanged(from: .idle, to: .playing))
            model.apply(.time(position: 30, duration: 60))
            model.apply(.downloadProgress(DownloadProgress(bytes: 10, expected: 100, ranges: [0..<10])))
            model.apply(.interstitialStarted(InterstitialReport(index: 0, source: MediaSource(path: "/media/ad.mp4"), at: 30)))
            model.apply(.time(position: 2, duration: 8))
            #expect(model.inBreak && model.position == 30 && model.duration == 60)
            model.apply(.interstitialEnded(InterstitialReport(index: 0, source: MediaSource(path: "/media/ad.mp4"), at: 30), error: nil))
            #expect(!model.inBreak)
            #expect(model.buffered?.bytes == 10)
            model.apply(.nextItemStarted(source: MediaSource(path: "/media/next.mp4")))
            #expect(model.position == 0 && model.duration == nil && model.buffered == nil)
            model.apply(.time(position: 5, duration: 20))
            model.apply(.stateChanged(from: .playing, to: .closed))
            #expect(model.position == 0 && model.duration == nil && model.mediaInfo == nil && model.buffered == nil)
            #expect(model.state == .closed)
        }
    }
}
