import Foundation
@testable import ReelApp
import ReelEngine
import Testing

/// The queue and the resume history on disk keep their format now that sources travel parsed:
/// files written before load, and what is written now reads the same way.
/// Threading: main actor; no window, no threads.
@Suite("Playback session: saved state")
struct SavedStateTests {
    @Test("A queue saved before sources were parsed loads, and is saved again in the same shape")
    func oldQueue() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = QueueStore(directory: folder)
            let old = """
            {"version":1,"queue":{"items":["/x/a.mp4","https://example.com/b.mkv","file:///x/c.webm"],"current":1,\
            "loop":"playlist","stopAfterCurrent":false,"shuffle":true,"order":[1,2,0]}}
            """
            try Data(old.utf8).write(to: store.url)
            let queue = try #require(store.load())
            #expect(queue.items == [MediaSource(path: "/x/a.mp4"), try MediaSource(parsing: "https://example.com/b.mkv"),
                                    MediaSource(path: "/x/c.webm")])
            #expect(queue.currentItem == (try MediaSource(parsing: "https://example.com/b.mkv")))
            #expect(queue.loop == .playlist && queue.shuffle)
            var q = queue
            #expect(q.advance(automatic: true) == MediaSource(path: "/x/c.webm"), "the saved play order")

            store.save(queue)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: store.url)) as? [String: Any])
            let saved = try #require(json["queue"] as? [String: Any])
            #expect(saved["items"] as? [String] == ["/x/a.mp4", "https://example.com/b.mkv", "/x/c.webm"])
            #expect(saved["order"] as? [Int] == [1, 2, 0] && saved["current"] as? Int == 1)
            #expect(store.load() == queue)
        }
    }

    @Test("A resume history written before sources were parsed still resumes its films and streams")
    func oldHistory() async throws {
        try await MainActor.run {
            let folder = try SessionBench.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let film = try SessionBench.mediaFile("film.mp4", in: folder)
            let key = try #require(ResumeHistory.fingerprint(of: film))
            let old = """
            {"version":1,"entries":{\
            "url:https://example.com/talk.mkv":{"position":125,"duration":3600,"source":"https://example.com/talk.mkv","saved":786000000},\
            "file:\(key)":{"position":300,"duration":1200,"source":"\(film)","saved":786000001}}}
            """
            try Data(old.utf8).write(to: folder.appendingPathComponent("positions.json"))
            let bench = SessionBench(folder: folder)
            bench.session.open(["https://example.com/talk.mkv"])
            #expect(bench.player.calls.contains(.open("https://example.com/talk.mkv", start: 125, paused: false)), "\(bench.player.calls)")
            _ = bench.player.take()
            bench.session.open([film])
            #expect(bench.player.calls.contains(.open(film, start: 300, paused: false)), "\(bench.player.calls)")
            #expect(bench.warnings.messages.isEmpty)
        }
    }
}
