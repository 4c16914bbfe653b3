import Foundation
@testable import ReelApp
@testable import ReelEngine
import Testing

/// Playing on with the window closed, and breaks, driven through a playback session with a
/// recorder for the player and the window.
/// Threading: main actor; no window, no threads.
@Suite("Playback session: background play and breaks")
struct BackgroundAndBreakTests {
    @Test("With the preference on, closing while playing only hides; at the end of the queue the window closes; Raise brings it back")
    func background() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = try SessionBench.mediaFile("clip.mp4", in: folder, bytes: 4096)
            let settings = FixedSettings()
            let bench = SessionBench(folder: folder, settings: settings)
            bench.session.open([clip])
            bench.state(.playing)
            // The preference off: closing closes.
            #expect(!bench.session.closeRequested())

            settings.backgroundPlayback = true
            bench.state(.ready)
            #expect(!bench.session.closeRequested(), "paused: nothing to play on")
            bench.state(.playing)
            #expect(bench.session.closeRequested())
            #expect(bench.session.inBackground)
            bench.session.present()
            #expect(!bench.session.inBackground)
            #expect(bench.player.calls.last == .present)
            // Back in front, the end of the queue leaves the window open.
            bench.state(.ended)
            bench.feed(.playedToEnd)
            #expect(!bench.player.calls.contains(.closeWindow))

            bench.session.open([clip])
            bench.state(.playing)
            #expect(bench.session.closeRequested())
            _ = bench.player.take()
            bench.state(.ended)
            bench.feed(.playedToEnd)
            #expect(bench.player.calls.last == .closeWindow, "\(bench.player.calls)")
        }
    }

    @Test("In the background with more in the queue, the end of an item plays the next and the window stays away")
    func backgroundGoesOn() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let a = try SessionBench.mediaFile("a.mp4", in: folder, bytes: 4096)
            let b = try SessionBench.mediaFile("b.mp4", in: folder, bytes: 4096)
            let settings = FixedSettings()
            settings.backgroundPlayback = true
            let bench = SessionBench(folder: folder, settings: settings)
            bench.session.open([a, b])
            bench.state(.playing)
            #expect(bench.session.closeRequested())
            _ = bench.player.take()
            bench.state(.ended)
            bench.feed(.playedToEnd)
            #expect(bench.player.opened == [b])
            #expect(!bench.player.calls.contains(.closeWindow) && !bench.player.calls.contains(.present))
        }
    }

    @Test("A break is scheduled at its time in what is open; bad text or a player without breaks says so; breaks go with their item")
    func breaks() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let a = try SessionBench.mediaFile("a.mp4", in: folder, bytes: 4096)
            let b = try SessionBench.mediaFile("b.mp4", in: folder, bytes: 4096)
            let bench = SessionBench(folder: folder)
            bench.session.open([a, b])
            _ = bench.player.take()
            bench.session.scheduleBreak("/media/ad.mp4@1")
            bench.session.scheduleBreak("/media/a@b.mp4@0")
            bench.session.scheduleBreak("https://example.com/x.mp4@12.5")
            #expect(bench.player.take() == [.scheduleBreak("/media/ad.mp4", at: 1), .scheduleBreak("/media/a@b.mp4", at: 0),
                                            .scheduleBreak("https://example.com/x.mp4", at: 12.5)])
            for text in ["/media/ad.mp4", "/media/ad.mp4@-1", "/media/ad.mp4@soon", "ftp://example.com/ad.mp4@3"] {
                bench.session.scheduleBreak(text)
                #expect(bench.player.take() == [.notify("Cannot schedule a break from “\(text)”: give CLIP@SECONDS", buttons: [])])
            }
            bench.player.hasBreaks = false
            bench.session.scheduleBreak("/media/ad.mp4@1")
            #expect(bench.player.take() == [.notify("Cannot schedule a break from “/media/ad.mp4@1”: give CLIP@SECONDS", buttons: [])])

            bench.feed(.interstitialStarted(InterstitialReport(index: 0, source: MediaSource(path: "/media/ad.mp4"), at: 1)))
            #expect(bench.player.take() == [.notify("Break: ad.mp4", buttons: [])])
            // The next item, with or without a gap: the breaks of the one before are dropped.
            bench.state(.playing)
            bench.feed(.nextItemStarted(source: MediaSource(path: b)))
            #expect(bench.player.take().first == .clearBreaks)
            bench.session.queue.select(0)
            let calls = bench.player.take()
            let clear = calls.firstIndex(of: .clearBreaks), open = calls.firstIndex(of: .open(a, start: nil, paused: false))
            #expect(clear != nil && open != nil && clear! < open!, "\(calls)")
        }
    }
}
