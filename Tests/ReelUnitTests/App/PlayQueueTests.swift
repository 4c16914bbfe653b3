import Foundation
@testable import ReelApp
import ReelEngine
import ReelTestSupport
import Testing

/// The queue's rules, and how opened names become queue items (real folders and playlists
/// on disk).
@Suite("Queue")
struct PlayQueueTests {
    @Test("Next and previous; the end stops unless looping all; loop one repeats only at an item's natural end")
    func movingOn() {
        var q = PlayQueue(items: ["a", "b", "c"], current: 0)
        #expect(q.advance(automatic: true) == "b")
        #expect(q.advance(automatic: false) == "c")
        #expect(q.advance(automatic: true) == nil)           // the end
        #expect(q.currentItem == "c")
        #expect(q.goBack() == "b")
        q.loop = .playlist
        #expect(q.advance(automatic: true) == "c")
        #expect(q.advance(automatic: true) == "a")           // round again
        #expect(q.goBack() == "c")
        q.loop = .track
        #expect(q.advance(automatic: true) == "c")           // the same again
        #expect(q.advance(automatic: false) == nil)          // asked for the next of the last: there is none (only looping all wraps)
        #expect(q.goBack() == "b")
        #expect(q.advance(automatic: false) == "c")          // the person still moves on
        q.stopAfterCurrent = true
        #expect(q.advance(automatic: true) == nil)
        #expect(!q.stopAfterCurrent, "stop after current applies once")
    }

    @Test("Shuffle plays every item once, from the current one, and turning it off restores the arranged order")
    func shuffle() {
        let items = (0..<20).map { MediaSource(path: "item\($0)") }
        var q = PlayQueue(items: items, current: 5)
        q.setShuffle(true)
        var seen = [q.currentItem!]
        while let next = q.advance(automatic: true) { seen.append(next) }
        #expect(seen.first == "item5")
        #expect(Set(seen) == Set(items) && seen.count == items.count, "played \(seen)")
        #expect(seen != [items[5]] + items.filter { $0 != "item5" }, "not shuffled at all")
        q.setShuffle(false)
        q.select(3)
        #expect(q.advance(automatic: true) == "item4")
    }

    @Test("Moving and removing keep the current item and the order")
    func editing() {
        var q = PlayQueue(items: ["a", "b", "c", "d"], current: 1)
        q.move(from: 3, to: 0)                                  // d a b c
        #expect(q.items == ["d", "a", "b", "c"] && q.currentItem == "b")
        q.move(from: 2, to: 3)                                  // d a c b
        #expect(q.currentItem == "b" && q.items == ["d", "a", "c", "b"])
        #expect(q.goBack() == "c")
        q.remove(at: 0)                                         // a c b
        #expect(q.currentItem == "c")
        q.remove(at: 1)
        #expect(q.currentItem == nil && q.items == ["a", "b"])
        q.append(["e"])
        #expect(q.items == ["a", "b", "e"])
    }

    @Test("Each item keeps its identity through moves, removals and insertions; a new one is never reused; the same file twice has two")
    func identities() throws {
        var q = PlayQueue(items: ["a", "b", "a"], current: 1)
        let (a1, b, a2) = (q.ids[0], q.ids[1], q.ids[2])
        #expect(Set(q.ids).count == 3, "ids: \(q.ids)")
        q.move(from: 2, to: 0)                                  // a2 a1 b
        #expect(q.ids == [a2, a1, b] && q.currentID == b)
        q.remove(at: 1)                                         // a2 b
        #expect(q.ids == [a2, b] && q.index(ofID: a1) == nil)
        q.insert(["c", "d"], at: 1)                             // a2 c d b
        #expect(q.items == ["a", "c", "d", "b"] && q.currentItem == "b" && q.currentID == b)
        let (c, d) = (q.ids[1], q.ids[2])
        #expect(Set([a1, a2, b, c, d]).count == 5, "an identity was given twice: \(q.ids), a1 \(a1)")
        #expect(q.index(ofID: d) == 2)
        // Playing on from the current item follows the arranged order with the new items in it.
        q.select(0)
        #expect(q.advance(automatic: false) == "c")
        // Shuffled, every item, old and new, plays once in a round of the whole queue.
        q.setShuffle(true)
        q.insert(["e"], at: 0)
        q.loop = .playlist
        var seen = [q.currentItem!]
        for _ in 1..<q.items.count {
            let next = q.advance(automatic: true)
            seen.append(try #require(next))
        }
        #expect(seen.sorted { $0.description < $1.description } == ["a", "b", "c", "d", "e"], "played \(seen)")
        // A new queue's items are all new.
        let before = Set(q.ids)
        q.replace(with: ["a", "b"])
        #expect(before.isDisjoint(with: q.ids))
    }

    @Test("A saved queue comes back as it was; a damaged or newer file is set aside")
    func store() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-queue-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = QueueStore(directory: dir)
        var q = PlayQueue(items: ["/x/a.mp4", "https://example.com/b.mkv"], current: 1)
        q.loop = .playlist
        q.setShuffle(true)
        store.save(q)
        #expect(store.load() == q)
        try Data("{\"version\": 99, \"queue\": {}}".utf8).write(to: store.url)
        #expect(store.load() == nil)
        try Data([0xff, 0x00, 0x13]).write(to: store.url)
        #expect(store.load() == nil)
    }

    @Test("Folders become their media files in name order; M3U playlists their entries; HLS stays one item")
    func sources() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-sources-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("season")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["ep10.mkv", "ep2.mp4", "ep1.webm", "notes.txt", ".hidden.mp4", "cover.jpg", "song.ogg"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        #expect(QueueSources.expand([folder.path]).map { ($0 as NSString).lastPathComponent }
                == ["ep1.webm", "ep2.mp4", "ep10.mkv", "song.ogg"])
        let list = dir.appendingPathComponent("list.m3u8")
        try """
        #EXTM3U
        #EXTINF:10,First
        season/ep2.mp4

        /abs/clip.mp4
        https://example.com/stream.mkv
        gopher://example.com/x
        """.write(to: list, atomically: true, encoding: .utf8)
        #expect(QueueSources.expand([list.path]) == [folder.appendingPathComponent("ep2.mp4").path, "/abs/clip.mp4",
                                                     "https://example.com/stream.mkv"])
        let hls = dir.appendingPathComponent("stream.m3u8")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg0.ts\n".write(to: hls, atomically: true, encoding: .utf8)
        #expect(QueueSources.expand([hls.path]) == [hls.path])
        // A playlist that includes itself ends, with what it names once.
        let loop = dir.appendingPathComponent("loop.m3u")
        try "loop.m3u\nseason/ep1.webm\n".write(to: loop, atomically: true, encoding: .utf8)
        #expect(QueueSources.expand([loop.path]) == [folder.appendingPathComponent("ep1.webm").path])
    }
}
