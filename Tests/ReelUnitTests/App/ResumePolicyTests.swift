import Foundation
@testable import ReelApp
import ReelEngine
import Testing

/// Resume where you left, driven through playback sessions that share a state folder as runs
/// of Reel do: the position comes back with a Start Over offer (or a question), a moved copy
/// is recognised, a film played to its end starts over, a damaged history is set aside, and
/// the position is written now and then while playing.
/// Threading: main actor; no window, no threads.
@Suite("Playback session: resume")
struct ResumePolicyTests {
    @Test("Where a seek lands is remembered even when the time reported after it says the same")
    func landingRemembered() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = try SessionBench.mediaFile("film.mp4", in: folder)
            var bench = SessionBench(folder: folder)
            bench.session.open([clip])
            bench.state(.playing)
            bench.time(1, of: 60)
            bench.feed(.seekCompleted(position: 31.5))
            bench.time(31.5, of: 60)   // the same place: no change of the model
            bench.session.finishResumeHistory()
            bench = bench.restarted()
            bench.session.open([clip], paused: true)
            #expect(bench.player.calls.contains(.open(clip, start: 31.5, paused: true)), "\(bench.player.calls)")
        }
    }

    @Test("Reopened, a film resumes where it was left with a Start Over button; a moved copy resumes too")
    func resumesAcrossRestarts() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = try SessionBench.mediaFile("film.mp4", in: folder)
            var bench = SessionBench(folder: folder)
            bench.session.open([clip])
            bench.state(.playing)
            bench.time(31.5, of: 60)
            // Quitting saves, then the closing player reports going back to nothing.
            bench.session.finishResumeHistory()
            bench.state(.closed)
            bench.time(0, of: 60)

            bench = bench.restarted()
            bench.session.open([clip], paused: true)
            #expect(bench.player.calls.contains(.open(clip, start: 31.5, paused: true)), "\(bench.player.calls)")
            #expect(bench.player.notices == ["Resumed from 0:31"])
            #expect(bench.player.calls.contains(.notify("Resumed from 0:31", buttons: ["Start Over"])))
            _ = bench.player.take()
            bench.player.press("Start Over")
            #expect(bench.player.take() == [.seek(0)])
            // Now near the start: nothing worth keeping any more; then at 40 s.
            bench.state(.playing)
            bench.time(0.5, of: 60)
            bench.time(40, of: 60)
            bench.session.finishResumeHistory()

            // The same film under another name elsewhere resumes as well.
            let moved = folder.appendingPathComponent("renamed film.mp4").path
            try FileManager.default.copyItem(atPath: clip, toPath: moved)
            bench = bench.restarted()
            bench.session.open([moved], paused: true)
            #expect(bench.player.calls.contains(.open(moved, start: 40, paused: true)), "\(bench.player.calls)")
        }
    }

    @Test("Asked first: the film opens paused at its start, Resume goes to where it was and plays, Start Over plays from the start")
    func asks() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = try SessionBench.mediaFile("film.mp4", in: folder)
            let settings = FixedSettings()
            settings.resumePlayback = .ask
            var bench = SessionBench(folder: folder, settings: settings)
            bench.session.open([clip])
            bench.state(.playing)
            bench.time(125, of: 3600)
            bench.session.finishResumeHistory()

            bench = bench.restarted()
            bench.session.open([clip])
            #expect(bench.player.calls.contains(.open(clip, start: nil, paused: true)), "\(bench.player.calls)")
            #expect(bench.player.calls.contains(.notify("Resume from 2:05?", buttons: ["Resume", "Start Over"])))
            #expect(!bench.player.calls.contains(.play))
            _ = bench.player.take()
            bench.player.press("Resume")
            #expect(bench.player.take() == [.seek(125), .play])
            bench.player.press("Start Over")
            #expect(bench.player.take() == [.play])

            settings.resumePlayback = .never
            bench = bench.restarted()
            bench.session.open([clip])
            #expect(bench.player.opened == [clip])
            #expect(bench.player.calls.contains(.open(clip, start: nil, paused: false)))
            #expect(bench.player.notices.isEmpty)
        }
    }

    @Test("A film played to its end starts from the beginning next time; a damaged history is set aside with a warning")
    func endAndDamage() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = try SessionBench.mediaFile("film.mp4", in: folder)
            var bench = SessionBench(folder: folder)
            bench.session.open([clip], paused: true)
            bench.state(.ready)
            bench.time(30, of: 60)
            bench.time(57, of: 60)
            bench.state(.playing)
            bench.time(58, of: 60)
            bench.state(.ended)
            bench.feed(.playedToEnd)
            bench.session.finishResumeHistory()

            bench = bench.restarted()
            bench.session.open([clip], paused: true)
            #expect(bench.player.calls.contains(.open(clip, start: nil, paused: true)), "\(bench.player.calls)")
            #expect(bench.player.notices.isEmpty)
            #expect(bench.warnings.messages.isEmpty)

            // The end forgets it even when the last position heard was still worth keeping (the
            // media ended before the length it announced).
            bench.state(.playing)
            bench.time(40, of: 60)
            bench.state(.ended)
            bench.feed(.playedToEnd)
            bench.session.finishResumeHistory()
            bench = bench.restarted()
            bench.session.open([clip], paused: true)
            #expect(bench.player.calls.contains(.open(clip, start: nil, paused: true)), "\(bench.player.calls)")
            #expect(bench.player.notices.isEmpty)

            // Left at 30 s, then the file is damaged.
            bench.state(.playing)
            bench.time(30, of: 60)
            bench.session.finishResumeHistory()
            let positions = folder.appendingPathComponent("positions.json")
            try Data("{ not json".utf8).write(to: positions)
            bench = bench.restarted()
            bench.session.open([clip], paused: true)
            #expect(bench.player.calls.contains(.open(clip, start: nil, paused: true)), "\(bench.player.calls)")
            #expect(bench.player.notices.isEmpty)
            #expect(bench.warnings.messages.count == 1)
            #expect(bench.warnings.messages.first?.contains("cannot be read") == true, "\(bench.warnings.messages)")
        }
    }

    @Test("While playing, where the film is is written every 10 s, and at once when it pauses")
    func periodicSave() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = try SessionBench.mediaFile("film.mp4", in: folder)
            let bench = SessionBench(folder: folder)
            let positions = folder.appendingPathComponent("positions.json").path
            func saved() -> Double? {
                guard let data = FileManager.default.contents(atPath: positions),
                      let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                      let entries = json["entries"] as? [String: [String: Any]] else { return nil }
                return entries.values.first?["position"] as? Double
            }
            bench.session.open([clip])
            bench.state(.playing)
            bench.time(30, of: 600)
            #expect(saved() == nil)
            bench.clock.now += 10
            bench.time(40, of: 600)
            #expect(saved() == nil, "written before 10 s had passed")
            bench.clock.now += 0.5
            bench.time(40.5, of: 600)
            #expect(saved() == 40.5)
            bench.clock.now += 1
            bench.time(41.5, of: 600)
            #expect(saved() == 40.5)
            bench.state(.ready)
            bench.feed(.stateChanged(from: .playing, to: .ready))
            #expect(saved() == 41.5)
        }
    }
}
