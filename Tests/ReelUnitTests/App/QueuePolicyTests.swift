import Foundation
@testable import ReelApp
@testable import ReelEngine
import Testing

/// What plays next, driven through a playback session with a recorder for the player: items
/// in order, unplayable ones skipped with a notice (and a stop after 100 in a row), a cycle of
/// playlists played once, the queue back after a restart, the next item prepared ahead.
/// Threading: main actor; no window, no threads.
@Suite("Playback session: the queue")
struct QueuePolicyTests {
    static func name(_ path: String) -> String { (path as NSString).lastPathComponent }

    static func write(_ lines: [String], to url: URL) throws {
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    static func failed(_ source: String) -> PlayerEvent {
        .stateChanged(from: .loading, to: .failed(.fileNotFound(source)))
    }

    @Test("Items play one after another; a missing one is skipped with a notice; the queue comes back after a restart, paused on its item")
    func advancesSkipsAndRestores() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let first = try SessionBench.mediaFile("first.mp4", in: folder, bytes: 4096)
            let last = try SessionBench.mediaFile("last.mp4", in: folder, bytes: 4096)
            let missing = "/nonexistent/missing.mp4"
            let bench = SessionBench(folder: folder)
            bench.session.open([first, missing, last])
            #expect(bench.player.opened == [first])
            #expect(bench.player.calls.contains(.open(first, start: nil, paused: false)), "\(bench.player.calls)")
            #expect(bench.player.take().last == .setNext(missing, audioStream: nil))
            bench.state(.ended)
            bench.feed(.playedToEnd)
            #expect(bench.player.opened == [missing])
            _ = bench.player.take()
            bench.feed(Self.failed(missing))
            let calls = bench.player.take()
            #expect(calls.contains(.notify("Skipped missing.mp4: File not found: \(missing)", buttons: [])), "\(calls)")
            #expect(calls.compactMap { if case .open(let s, _, let paused) = $0 { "\(Self.name(s)) \(paused)" } else { nil } }
                    == ["last.mp4 false"], "\(calls)")

            // Started again without files: the queue is back, paused on the item it was at.
            let again = bench.restarted()
            #expect(again.session.restoreQueue())
            #expect(again.player.opened == [last])
            #expect(again.player.calls.contains(.open(last, start: nil, paused: true)), "\(again.player.calls)")
            #expect(again.session.queue.queue.items.map(\.description) == [first, missing, last])
            #expect(again.session.queue.currentSource?.description == last)
        }
    }

    @Test("100,000 missing entries: the queue stops after 100 in a row, with a notice, on the 100th")
    func missingEntriesStop() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let list = folder.appendingPathComponent("missing.m3u")
            try Self.write((0..<100_000).map { "/nonexistent/reel-hostile/clip\($0).mp4" }, to: list)
            let settings = FixedSettings()
            settings.rememberQueue = false
            let bench = SessionBench(folder: folder, settings: settings)
            bench.session.open([list.path])
            var opened: [String] = []
            // Each item opened fails, as a missing file does, until the session stops opening.
            while let source = bench.player.take().compactMap({ if case .open(let s, _, _) = $0 { s } else { nil } }).last {
                opened.append(source)
                #expect(opened.count <= 100_000)
                bench.feed(Self.failed(source))
                if let notice = bench.player.calls.compactMap({ if case .notify(let t, _) = $0 { t } else { nil } }).last,
                   notice.hasPrefix("Stopped") {
                    #expect(notice == "Stopped: \(QueueController.mostFailuresInARow) items in a row cannot be played")
                    break
                }
            }
            #expect(opened.count == QueueController.mostFailuresInARow)
            #expect(opened.last == "/nonexistent/reel-hostile/clip\(QueueController.mostFailuresInARow - 1).mp4")
            #expect(bench.player.opened.isEmpty, "opened after the stop: \(bench.player.opened.prefix(3))")
        }
    }

    @Test("A cycle of playlists plays each item once and stops on the last")
    func cyclePlaysOnce() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let first = try SessionBench.mediaFile("first.mp4", in: folder, bytes: 4096)
            let second = try SessionBench.mediaFile("second.mkv", in: folder, bytes: 4096)
            try Self.write([first, "b.m3u"], to: folder.appendingPathComponent("a.m3u"))
            try Self.write(["a.m3u", second, "a.m3u"], to: folder.appendingPathComponent("b.m3u"))
            let bench = SessionBench(folder: folder)
            bench.session.open([folder.appendingPathComponent("a.m3u").path])
            #expect(bench.player.opened == [first])
            _ = bench.player.take()
            bench.feed(.playedToEnd)
            #expect(bench.player.opened == [second])
            #expect(bench.player.calls.last == .setNext(nil, audioStream: nil), "\(bench.player.calls)")
            _ = bench.player.take()
            // Its end is the queue's end: nothing more opens or plays, and it stays current.
            bench.feed(.playedToEnd)
            let after = bench.player.take()
            #expect(after.allSatisfy { if case .setNext(nil, _) = $0 { true } else { false } }, "\(after)")
            #expect(bench.session.queue.queue.items.map(\.description) == [first, second])
            #expect(bench.session.queue.currentSource?.description == second)
        }
    }

    @Test("The next item is prepared ahead with its sound track; one with a remembered position is not; a gapless hand-over moves the queue on")
    func preparesNext() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let a = try SessionBench.mediaFile("a.mp4", in: folder), b = try SessionBench.mediaFile("b.mp4", in: folder)
            let c = try SessionBench.mediaFile("c.mp4", in: folder)
            let settings = FixedSettings()
            settings.audioChoices[b] = 2
            // c was left at 100 s in an earlier run.
            let earlier = SessionBench(folder: folder, settings: settings)
            earlier.session.open([c])
            earlier.state(.playing)
            earlier.time(100, of: 600)
            earlier.session.finishResumeHistory()

            let bench = earlier.restarted()
            bench.session.open([a, b, c])
            #expect(bench.player.calls.last == .setNext(b, audioStream: 2), "\(bench.player.calls)")
            _ = bench.player.take()
            bench.state(.playing)
            bench.feed(.nextItemStarted(source: MediaSource(path: b)))
            let calls = bench.player.take()
            #expect(bench.session.queue.currentSource?.description == b)
            #expect(calls.contains(.clearBreaks), "\(calls)")
            #expect(calls.last == .setNext(nil, audioStream: nil), "c resumes, so it opens the ordinary way: \(calls)")
            #expect(!calls.contains { if case .open = $0 { true } else { false } }, "\(calls)")
            bench.feed(.playedToEnd)
            #expect(bench.player.calls.contains(.open(c, start: 100, paused: false)), "\(bench.player.calls)")
        }
    }

    @Test("With autoplay off, opening stays paused but the queue moving on plays the next item, resumed or not")
    func autoplayOff() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let a = try SessionBench.mediaFile("a.mp4", in: folder), b = try SessionBench.mediaFile("b.mp4", in: folder)
            let c = try SessionBench.mediaFile("c.mp4", in: folder)
            let settings = FixedSettings()
            settings.autoplay = false
            // c was left at 100 s in an earlier run.
            let earlier = SessionBench(folder: folder, settings: settings)
            earlier.session.open([c])
            earlier.state(.playing)
            earlier.time(100, of: 600)
            earlier.session.finishResumeHistory()

            let bench = earlier.restarted()
            bench.session.open([a, b, c])
            #expect(bench.player.calls.contains(.open(a, start: nil, paused: true)), "\(bench.player.calls)")
            #expect(!bench.player.calls.contains(.play))
            _ = bench.player.take()
            bench.state(.ended)
            bench.feed(.playedToEnd)
            var calls = bench.player.take()
            #expect(calls.contains(.open(b, start: nil, paused: false)) && calls.contains(.play), "\(calls)")
            bench.feed(.playedToEnd)
            calls = bench.player.take()
            #expect(calls.contains(.open(c, start: 100, paused: false)) && calls.contains(.play), "\(calls)")
        }
    }

    @Test("Previous within 3 s of an item's start goes to the item before; later, or on the first item, it starts the item over")
    func previous() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let a = try SessionBench.mediaFile("a.mp4", in: folder, bytes: 4096)
            let b = try SessionBench.mediaFile("b.mp4", in: folder, bytes: 4096)
            let bench = SessionBench(folder: folder)
            bench.session.open([a, b])
            bench.state(.playing)
            bench.time(1, of: 60)
            #expect(bench.session.queue.canGoPrevious)
            _ = bench.player.take()
            bench.session.queue.previous()
            #expect(bench.player.take() == [.seek(0)], "the first item starts over")
            bench.session.queue.next()
            #expect(bench.player.take().contains(.open(b, start: nil, paused: false)))
            bench.time(QueueController.restartThreshold + 0.5, of: 60)
            bench.session.queue.previous()
            #expect(bench.player.take() == [.seek(0)], "3.5 s in: the item starts over")
            bench.time(QueueController.restartThreshold - 0.5, of: 60)
            bench.session.queue.previous()
            let calls = bench.player.take()
            #expect(calls.contains(.open(a, start: nil, paused: false)) && !calls.contains(.seek(0)), "\(calls)")
            #expect(bench.session.queue.currentSource?.description == a)
        }
    }

    @Test("Names are parsed once as they are opened: one Reel cannot play from its scheme is left out with a notice, the rest play")
    func unplayableNames() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let a = try SessionBench.mediaFile("a.mp4", in: folder, bytes: 4096)
            let bench = SessionBench(folder: folder)
            bench.session.open(["ftp://example.com/x.mp4", a])
            #expect(bench.player.notices.count == 1)
            #expect(bench.player.notices.first?.hasPrefix("Cannot play ftp://example.com/x.mp4: ") == true, "\(bench.player.notices)")
            #expect(bench.player.opened == [a])
            #expect(bench.session.queue.queue.items.map(\.description) == [a])
            _ = bench.player.take()
            bench.session.open(["gopher://example.com/y"])
            #expect(bench.player.opened.isEmpty)
            #expect(bench.player.notices.count == 2 && bench.player.notices.last == "Nothing to play in y", "\(bench.player.notices)")
            #expect(bench.session.queue.currentSource?.description == a, "the queue stays as it was")
        }
    }
}
