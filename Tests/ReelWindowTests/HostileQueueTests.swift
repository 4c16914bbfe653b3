import Foundation
@testable import ReelApp
import ReelEngine
import ReelTestSupport
import Testing

/// Hostile queue playlists, written here: an `.m3u` that includes itself, a cycle of two, one
/// naming another thousands of times, one of 100,000 lines. Expanding ends with the finite
/// list of media they name, and the real window keeps a queue of 100,000 items in bounded
/// memory. (Playing such a list once, and stopping after 100 missing items in a row, are the
/// playback session's rules: ReelUnitTests.)
@Suite("Hostile queue playlists", .serialized)
struct HostileQueueTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-hostile-queue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func write(_ lines: [String], to url: URL) throws {
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    @Test("A playlist including itself, a cycle a → b → a, a folder link back to itself: the media named, each once")
    func cycles() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["one.mp4", "two.mkv", "three.webm"] {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data())
        }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

        try Self.write(["#EXTM3U", "itself.m3u", "one.mp4", "./itself.m3u", path("itself.m3u"), "two.mkv"],
                       to: dir.appendingPathComponent("itself.m3u"))
        #expect(QueueSources.expand([path("itself.m3u")]) == [path("one.mp4"), path("two.mkv")])

        try Self.write(["one.mp4", "b.m3u"], to: dir.appendingPathComponent("a.m3u"))
        try Self.write(["two.mkv", "a.m3u", "three.webm"], to: dir.appendingPathComponent("b.m3u"))
        #expect(QueueSources.expand([path("a.m3u")]) == [path("one.mp4"), path("two.mkv"), path("three.webm")])
        #expect(QueueSources.expand([path("b.m3u")]) == [path("two.mkv"), path("one.mp4"), path("three.webm")])

        // Through a link to its own folder every name is new, but the file is the same.
        try FileManager.default.createSymbolicLink(atPath: path("again"), withDestinationPath: ".")
        try Self.write(["one.mp4", "again/linked.m3u"], to: dir.appendingPathComponent("linked.m3u"))
        #expect(QueueSources.expand([path("linked.m3u")]) == [path("one.mp4")])

        // Played through without looping: the queue ends after each item once.
        var queue = PlayQueue(items: QueueSources.expand([path("a.m3u")]).map { MediaSource(path: $0) }, current: 0)
        var played = [queue.currentItem?.description ?? ""]
        while let next = queue.advance(automatic: true) { played.append(next.description) }
        #expect(played == [path("one.mp4"), path("two.mkv"), path("three.webm")])
    }

    @Test("A playlist naming another thousands of times does not multiply it")
    func repeatedInclusion() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clips = (0..<1_000).map { "clip\($0).mp4" }
        try Self.write(clips, to: dir.appendingPathComponent("inner.m3u"))
        try Self.write(Array(repeating: "inner.m3u", count: 1_000), to: dir.appendingPathComponent("outer.m3u"))
        let items = QueueSources.expand([dir.appendingPathComponent("outer.m3u").path])
        #expect(items == clips.map { dir.appendingPathComponent($0).path }, "\(items.count) items")
    }

    @Test("A .m3u of 100,000 lines is 100,000 items; the panel shows rows for 500 of them, around the current one")
    func hundredThousandLines() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("long.m3u")
        try Self.write((0..<100_000).map { "/media/clip\($0).mp4" }, to: list)
        let items = QueueSources.expand([list.path])
        #expect(items.count == 100_000)
        #expect(items.first == "/media/clip0.mp4" && items.last == "/media/clip99999.mp4")
        #expect(QueuePanel.shownRange(count: 100_000, current: 0) == 0..<500)
        #expect(QueuePanel.shownRange(count: 100_000, current: 50_000) == 49_900..<50_400)
        #expect(QueuePanel.shownRange(count: 100_000, current: 99_999) == 99_500..<100_000)
        #expect(QueuePanel.shownRange(count: 30, current: 29) == 0..<30)
    }

    @Test("In the window, a .m3u of 100,000 lines plays its first item; the panel says what it leaves out; memory stays bounded")
    func hundredThousandLinesInTheWindow() throws {
        // A long item: the panel's rows are not rebuilt for the next one while they are read.
        let clip = try Fixtures.path(.longSmall)
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("long.m3u")
        try Self.write(Array(repeating: clip, count: 100_000), to: list)
        let desktop = try Desktop()
        let app = try ReelApp(on: desktop, arguments: [list.path])
        defer { app.stop() }
        try Desktop.wait("the first item", log: app.log) { app.title.contains(QueueWindowTests.name(clip)) }
        try app.click(try app.revealHeader(showing: "Queue"))
        // Looked for from the tree's end, where the note follows the 500 rows: reading every
        // row's name, state and place took seconds per look.
        let note = try app.waitForLastElement("the note of items left out", nameEndingWith: "more items not shown",
                                              timeout: 120)
        #expect(note.name == "99500 more items not shown", "\(note.name)")
        // A guard far above what the window takes (about 300 MB); a row for each item took 2 GB.
        let peak = try Self.peakResidentBytes(app.pid)
        #expect(peak < 1 << 30, "peak \(peak >> 20) MB")
    }

    /// The process's peak resident memory (VmHWM).
    static func peakResidentBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
