import Foundation
@testable import ReelEngine
@testable import ReelGtk
import Testing

/// The player view's model without a window: fed the player's events, it holds what they say
/// and tells its observers, each once per change with what changed and the moment it was, in
/// the order they came; per-property observers hear only their property; tokens end
/// observations; the seek asked for is where relative seeks start until it lands.
/// Threading: main actor.
@Suite("Player model")
struct PlayerModelTests {
    /// Everything an observer saw, as text. Threading: main actor (the model's observers).
    final class Seen {
        var lines: [String] = []
    }

    @Test("Levelling switched is a change of the sound, told once; the same again is no change")
    func levelling() async {
        await MainActor.run {
            let model = PlayerModel()
            var changes: [Bool] = []
            let token = model.observe { change in if change.contains(.sound) { changes.append(model.sound.isLevelling) } }
            model.apply(.levellingChanged(true))
            model.apply(.levellingChanged(true))
            model.apply(.levellingChanged(false))
            #expect(changes == [true, false])
            withExtendedLifetime(token) {}
        }
    }

    @Test("Fed events, the model holds what they say and tells every observer once per change, in the order they came")
    func holdsAndTells() async {
        await MainActor.run {
            let model = PlayerModel()
            let seen = Seen()
            let first = model.observe { _ in seen.lines.append("first \(model.state) \(model.position) \(model.duration ?? -1)") }
            let second = model.observe { _ in
                seen.lines.append("second \(model.sound.volume) \(model.sound.isMuted) \(model.speed)")
            }
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

    @Test("Each change says which parts changed, and the state before it")
    func aspects() async {
        await MainActor.run {
            let model = PlayerModel()
            var changes: [PlayerModel.Change] = []
            let token = model.observe { changes.append($0) }
            model.apply(.stateChanged(from: .idle, to: .playing))
            model.apply(.time(position: 2, duration: nil))
            model.apply(.durationKnown(60))
            model.apply(.volumeChanged(volume: 0.3, muted: false))
            model.apply(.subtitleDelayChanged(0.1))
            #expect(changes.count == 5)
            #expect(changes[0].contains(.state) && changes[0].previousState == .idle && !changes[0].reportsPosition)
            #expect(changes[1].aspects == .timeline && changes[1].reportsPosition)
            #expect(changes[2].contains(.duration) && changes[2].contains(.timeline) && !changes[2].reportsPosition)
            model.apply(.seekCompleted(position: 3))
            #expect(changes.last?.reportsPosition == true)
            changes.removeLast()
            #expect(changes[3].aspects == .sound)
            #expect(changes[4].aspects == .subtitles && model.subtitles.delay == 0.1)
            if case .subtitleDelayChanged(let delay) = changes[4].moment { #expect(delay == 0.1) } else { Issue.record("no moment") }
            withExtendedLifetime(token) {}
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

    @Test("One-off moments reach observers after the model took them in; a released token ends its observer")
    func momentsAndTokens() async {
        await MainActor.run {
            let model = PlayerModel()
            var heard: [String] = []
            var token: ObservationToken? = model.observe { change in
                switch change.moment {
                case .playedToEnd: heard.append("played to end, through \(model.timeline.playedThrough)")
                case .warning(let warning): heard.append("warning \(warning.code)")
                case .landed(let at): heard.append("landed \(at), model \(model.position)")
                case nil: heard.append("state \(model.state)")
                default: heard.append("other")
                }
            }
            model.apply(.stateChanged(from: .idle, to: .ready))
            model.apply(.playedToEnd)
            model.apply(.warning(.noSoundServer(reason: "gone")))
            model.apply(.seekCompleted(position: 4))
            model.apply(.displayInvalidated)
            #expect(heard == ["state ready", "played to end, through true", "warning no_sound_server", "landed 4.0, model 4.0", "other"])
            #expect(model.warnings == [.noSoundServer(reason: "gone")])
            token = nil
            model.apply(.stateChanged(from: .ready, to: .playing))
            #expect(heard.count == 5)
            _ = token
        }
    }

    @Test("Closing forgets the media; the next item starts at 0 with its source; a break holds the position")
    func clearing() async {
        await MainActor.run {
            let model = PlayerModel()
            model.opening("clip.mp4", source: try? MediaSource(parsing: "/media/clip.mp4"))
            #expect(model.sourceName == "clip.mp4" && model.source?.description == "/media/clip.mp4")
            model.apply(.stateChanged(from: .idle, to: .playing))
            model.apply(.time(position: 30, duration: 60))
            model.apply(.downloadProgress(DownloadProgress(bytes: 10, expected: 100, ranges: [0..<10])))
            model.apply(.interstitialStarted(InterstitialReport(index: 0, source: MediaSource(path: "/media/ad.mp4"), at: 30)))
            model.apply(.time(position: 2, duration: 8))
            model.apply(.interstitialProgress(position: 2, duration: 8))
            #expect(model.inBreak && model.position == 30 && model.duration == 60 && model.breakTime?.position == 2)
            model.apply(.interstitialEnded(InterstitialReport(index: 0, source: MediaSource(path: "/media/ad.mp4"), at: 30), error: nil))
            #expect(!model.inBreak)
            #expect(model.buffered?.bytes == 10)
            model.apply(.nextItemStarted(source: MediaSource(path: "/media/next.mp4")))
            #expect(model.position == 0 && model.duration == nil && model.buffered == nil)
            #expect(model.source?.description == "/media/next.mp4" && model.sourceName == "next.mp4")
            model.apply(.time(position: 5, duration: 20))
            model.apply(.warning(.soundOutputFailed(reason: "late")))
            model.apply(.stateChanged(from: .playing, to: .closed))
            #expect(model.position == 0 && model.duration == nil && model.mediaInfo == nil && model.buffered == nil)
            #expect(model.state == .closed && model.source == nil && model.warnings.isEmpty)
        }
    }

    @Test("Played to the end, the time reads the whole length until the player moves again")
    func playedThrough() async {
        await MainActor.run {
            let model = PlayerModel()
            model.apply(.stateChanged(from: .idle, to: .playing))
            model.apply(.time(position: 9.96, duration: 10))
            model.apply(.stateChanged(from: .playing, to: .ended))
            model.apply(.playedToEnd)
            model.apply(.time(position: 9.96, duration: 10))
            #expect(model.timeline.shown == 10)
            model.apply(.stateChanged(from: .ended, to: .playing))
            #expect(model.timeline.shown == 9.96)
        }
    }

    @Test("A seek asked for is where the next relative seek starts, until it lands; playing, the position is carried on")
    func seekBase() async {
        await MainActor.run {
            let model = PlayerModel()
            model.apply(.stateChanged(from: .idle, to: .ready))
            model.apply(.time(position: 10, duration: 100))
            #expect(model.seekBase(now: Clock.now + 5) == 10, "paused: where it is")
            model.seekRequested(to: 15)
            #expect(model.seekBase(now: Clock.now) == 15)
            model.apply(.seekCompleted(position: 15))
            #expect(model.timeline.seekTarget == nil)
            model.apply(.stateChanged(from: .ready, to: .playing))
            model.apply(.time(position: 20, duration: 100))
            let reported = model.timeline.reportedAt
            #expect(model.livePosition(now: reported + 1) == 21)
            model.apply(.speedChanged(2))
            #expect(model.livePosition(now: reported + 1) == 22, "at the speed playing now")
            #expect(model.livePosition(now: reported + 1000) == 100, "never past the end")
        }
    }

    @Test("The A-B loop is what the player says it holds, told as the loop aspect once per change")
    func loop() async {
        await MainActor.run {
            let model = PlayerModel()
            var told = 0
            let token = model.observe { change in if change.contains(.loop) { told += 1 } }
            model.apply(.loopChanged(LoopSpan(start: 2)))
            model.apply(.loopChanged(LoopSpan(start: 2)))
            #expect(model.loop == LoopSpan(start: 2) && told == 1)
            model.apply(.loopChanged(LoopSpan(start: 2, end: 4)))
            model.apply(.loopChanged(nil))
            #expect(model.loop == nil && told == 3)
            withExtendedLifetime(token) {}
        }
    }

    @Test("A seek asked for is told at once as a moment, then its landing")
    func seekMoments() async {
        await MainActor.run {
            let model = PlayerModel()
            var heard: [String] = []
            let token = model.observe { change in
                switch change.moment {
                case .seekRequested(let target): heard.append("asked \(target) \(change.contains(.timeline))")
                case .landed(let at): heard.append("landed \(at)")
                default: break
                }
            }
            model.apply(.stateChanged(from: .idle, to: .ready))
            model.seekRequested(to: 12)
            model.seekRequested(to: 17)
            model.apply(.seekCompleted(position: 17))
            #expect(heard == ["asked 12.0 true", "asked 17.0 true", "landed 17.0"])
            withExtendedLifetime(token) {}
        }
    }

    @Test("A scan is told; ended with play resuming it lasts until the player's next state, ended paused at once")
    func scanning() async {
        await MainActor.run {
            let model = PlayerModel()
            var told = 0
            let token = model.observe { _ in told += 1 }
            model.apply(.stateChanged(from: .idle, to: .playing))
            model.scanStarted()
            #expect(model.timeline.isScanning && told == 2)
            model.apply(.stateChanged(from: .playing, to: .ready))   // the scan's own pause
            #expect(model.timeline.isScanning)
            model.scanEnded(resuming: true)
            #expect(model.timeline.isScanning, "over before play resumed")
            model.apply(.stateChanged(from: .ready, to: .playing))
            #expect(!model.timeline.isScanning)
            model.scanStarted()
            model.scanEnded(resuming: false)
            #expect(!model.timeline.isScanning)
            model.scanEnded(resuming: false)
            #expect(told == 6, "told \(told) times")
            withExtendedLifetime(token) {}
        }
    }

    @Test("A picture shown is known until what is open goes; the next item keeps the one on screen")
    func pictureShown() async {
        await MainActor.run {
            let model = PlayerModel()
            var media = 0
            let token = model.observe { if $0.contains(.media) { media += 1 } }
            model.apply(.stateChanged(from: .idle, to: .ready))
            #expect(!model.pictureShown)
            model.apply(.firstFrameShown(pts: 0))
            #expect(model.pictureShown && media == 1)
            model.apply(.nextItemStarted(source: "/media/next.mp4"))
            #expect(model.pictureShown)
            model.opening("other.mp4", source: nil)
            #expect(!model.pictureShown)
            withExtendedLifetime(token) {}
        }
    }
}
