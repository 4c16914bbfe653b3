import Foundation
import ReelTestSupport
import Testing

/// The queue saved as a playlist through the queue panel's button and the real save dialog,
/// then opened again: the file holds every item in order, named relative to it, as Python
/// reads it (not Reel), and a new window's queue is the same list. (XSPF's writing and reading
/// are PlaylistFileTests'; Python's XML reading is kept here for the file those write.)
/// Threading: serialised; the tests take turns on the queue tests' desktop.
@Suite("Saving the queue", .serialized)
struct QueueSaveWindowTests {
    /// The entries of a playlist as Python reads them: an XSPF's track locations, or an M3U's
    /// lines that are not comments.
    static func entries(_ path: String) throws -> [String] {
        let script = """
            import sys, xml.etree.ElementTree as ET
            p = sys.argv[1]
            if p.endswith('.xspf'):
                ns = {'x': 'http://xspf.org/ns/0/'}
                for t in ET.parse(p).getroot().find('x:trackList', ns).findall('x:track', ns):
                    print(t.find('x:location', ns).text)
            else:
                for line in open(p, encoding='utf-8').read().splitlines():
                    if line and not line.startswith('#'): print(line)
            """
        return try Command.run(["python3", "-c", script, path]).output.split(separator: "\n").map(String.init)
    }

    @Test("Save the queue from the queue panel: the dialog offers Queue.m3u8 in the Videos folder; opening it queues the same items")
    func saveAndOpen() throws {
        try QueueWindowTests.desktops.use { desktop in
            // The clips beside the playlist, as a folder of videos is: named relative to it.
            let folder = desktop.home.appendingPathComponent("films")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // The dialog starts in the Videos folder (XDG's user-dirs.dirs says which).
            let userDirs = "XDG_VIDEOS_DIR=\"" + folder.path + "\"\n"
            try Data(userDirs.utf8).write(to: desktop.home.appendingPathComponent("config/user-dirs.dirs"))
            var clips: [String] = []
            for (spec, as_) in [(Fixtures.Spec.longSmall, "b second.mp4"), (.h264MP4, "a first.mp4"), (.videoOnly, "c ça.mp4")] {
                let path = folder.appendingPathComponent(as_).path
                try FileManager.default.copyItem(atPath: try Fixtures.path(spec), toPath: path)
                clips.append(path)
            }
            let app = try ReelApp(on: desktop, arguments: ["--paused"] + clips)
            try Desktop.wait("the first item", log: app.log) { app.title.contains("b second") }
            try app.click(try app.revealHeader(showing: "Queue"))
            _ = try QueueWindowTests.rows(app, count: 3)
            let save = try #require(try QueueWindowTests.onScreen(app).first { $0.name == "Save the queue as a playlist" })
            try app.click(save)
            try app.element(named: "Save Queue")
            // The keys wait for the dialog's name field to have the keyboard.
            try app.waitForElement("the file name field focused", timeout: 20) {
                $0.role == "text" && $0.states.contains("focused") && $0.states.contains("visible")
            }
            // The name offered, as most people leave it (typing one goes through the entry's
            // completion popup, which takes the Return).
            try desktop.key("Return")
            let written = folder.appendingPathComponent("Queue.m3u8").path
            var entries: [String] = []
            try Desktop.wait("the playlist file", log: app.log, timeout: 15) {
                entries = (try? Self.entries(written)) ?? []
                return entries.count == 3
            }
            #expect(entries == clips.map { ($0 as NSString).lastPathComponent })
            try app.element(named: "Queue saved as \((written as NSString).lastPathComponent)")
            app.stop()

            let again = try ReelApp(on: desktop, arguments: ["--paused", written])
            defer { again.stop() }
            try Desktop.wait("the playlist's first item", log: again.log) { again.title.contains("b second") }
            try again.click(try again.revealHeader(showing: "Queue"))
            let rows = try QueueWindowTests.rows(again, count: 3)
            #expect(rows == ["b second.mp4 (playing)", "a first.mp4", "c ça.mp4"], "rows: \(rows)")
        }
    }
}
