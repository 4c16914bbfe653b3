import Foundation
@testable import ReelApp
import ReelEngine
import Testing

/// Playlists written and read back through the queue's own reading (`QueueSources.expand`),
/// on real files in a temporary folder; XSPF and PLS as other players write them.
@Suite("Playlist files")
struct PlaylistFileTests {
    /// A fresh folder holding `names` (empty files), removed by the caller.
    static func folder(_ names: [String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-playlists-\(UUID().uuidString)")
        for name in names {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: url.path, contents: Data())
        }
        return dir
    }

    static let names = ["films/Le Voyage dans la Lune (1902).mkv", "films/#1 ça & 100%.mp4", "films/extras/a'b \"c\".webm",
                        "elsewhere/clip.mp4"]

    @Test("M3U8 and XSPF round trips keep every item and its order, names with spaces, accents, & % # and quotes",
          arguments: ["list.m3u8", "list.xspf", "sub/list.m3u8", "sub/list.xspf"])
    func roundTrip(_ playlistName: String) throws {
        let dir = try Self.folder(Self.names)
        defer { try? FileManager.default.removeItem(at: dir) }
        let items = Self.names.map { MediaSource(path: dir.appendingPathComponent($0).path) }
            + [try MediaSource(parsing: "https://example.com/a%20b.mkv?x=1&y=2")]
        let playlist = dir.appendingPathComponent("films").appendingPathComponent(playlistName)
        try FileManager.default.createDirectory(at: playlist.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PlaylistFile.write(items, to: playlist.path)
        let read = try QueueSources.expand([playlist.path]).map { try MediaSource(parsing: $0) }
        let written = String(decoding: try Data(contentsOf: playlist), as: UTF8.self)
        #expect(read == items, "\(playlistName):\n\(written)")
    }

    @Test("Files beside or below the playlist are named relative to it; a folder with its playlist can move")
    func relativeAndMovable() throws {
        let dir = try Self.folder(Self.names)
        defer { try? FileManager.default.removeItem(at: dir) }
        let items = Self.names.map { MediaSource(path: dir.appendingPathComponent($0).path) }
        let playlist = dir.appendingPathComponent("films/list.m3u8")
        try PlaylistFile.write(items, to: playlist.path)
        let text = try String(contentsOf: playlist, encoding: .utf8)
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines == ["Le Voyage dans la Lune (1902).mkv", "./#1 ça & 100%.mp4", "extras/a'b \"c\".webm", "../elsewhere/clip.mp4"])
        #expect(text.hasPrefix("#EXTM3U\n#EXTINF:-1,Le Voyage dans la Lune (1902)\n"))
        #expect(PlaylistFile.relative("/media/x.mp4", to: "/home/me") == "/media/x.mp4")

        // The whole folder moves: the playlist still names its files.
        let moved = dir.deletingLastPathComponent().appendingPathComponent("moved-\(UUID().uuidString)")
        try FileManager.default.moveItem(at: dir, to: moved)
        defer { try? FileManager.default.removeItem(at: moved) }
        let read = try QueueSources.expand([moved.appendingPathComponent("films/list.m3u8").path]).map { try MediaSource(parsing: $0) }
        #expect(read == Self.names.map { MediaSource(path: moved.appendingPathComponent($0).path) })
    }

    @Test("XSPF as VLC writes it: file URLs, percent-encoding, entities, tracks without a location")
    func xspfFromElsewhere() throws {
        let dir = try Self.folder(["a b.mp4", "c&d.mkv"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("vlc.xspf")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <playlist xmlns="http://xspf.org/ns/0/" xmlns:vlc="http://www.videolan.org/vlc/playlist/ns/0/" version="1">
          <title>Playlist</title>
          <trackList>
            <track><location>file://\(dir.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!)/a%20b.mp4</location>
              <duration>4000</duration><extension application="http://www.videolan.org/vlc/playlist/0"><vlc:id>0</vlc:id></extension></track>
            <track><title>no location</title></track>
            <track><location>c%26d.mkv</location><location>ignored.mkv</location></track>
            <track><location>https://example.com/x.mkv?a=1&amp;b=2</location></track>
            <track><location>smb://server/share/y.mkv</location></track>
          </trackList>
        </playlist>
        """.write(to: list, atomically: true, encoding: .utf8)
        #expect(QueueSources.expand([list.path]) == [dir.appendingPathComponent("a b.mp4").path,
                                                     dir.appendingPathComponent("c&d.mkv").path,
                                                     "https://example.com/x.mkv?a=1&b=2"])
    }

    @Test("PLS in the order of its numbers, Latin-1 and CRLF as old files are")
    func pls() throws {
        let dir = try Self.folder([])
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("radio.pls")
        let text = "[playlist]\r\nNumberOfEntries=3\r\nFile2=http://radio.example/stream\r\nTitle2=Radio\r\n"
            + "File1=caf\u{e9}.mp3\r\nfile3=/abs/x.ogg\r\nLength1=-1\r\nVersion=2\r\n"
        try text.data(using: .isoLatin1)!.write(to: list)
        #expect(QueueSources.expand([list.path]) == [dir.appendingPathComponent("café.mp3").path,
                                                     "http://radio.example/stream", "/abs/x.ogg"])
    }

    @Test("Hostile XSPF: broken XML keeps the tracks before the fault, entity bombs and cycles end, invalid UTF-8 reads nothing")
    func hostile() throws {
        let dir = try Self.folder(["one.mp4"])
        defer { try? FileManager.default.removeItem(at: dir) }
        func write(_ name: String, _ text: String) throws -> String {
            let url = dir.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        let broken = try write("broken.xspf", "<playlist><trackList><track><location>one.mp4</location></track><track><loc")
        #expect(QueueSources.expand([broken]) == [dir.appendingPathComponent("one.mp4").path])
        let bomb = try write("bomb.xspf", """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
            <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
            <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>
            <playlist><trackList><track><location>&h;</location></track></trackList></playlist>
            """)
        #expect(QueueSources.expand([bomb]).allSatisfy { $0.utf8.count < 1 << 20 })
        let a = try write("a.xspf", "<playlist><trackList><track><location>b.xspf</location></track>"
                          + "<track><location>one.mp4</location></track></trackList></playlist>")
        _ = try write("b.xspf", "<playlist><trackList><track><location>a.xspf</location></track></trackList></playlist>")
        #expect(QueueSources.expand([a]) == [dir.appendingPathComponent("one.mp4").path])
        let bad = dir.appendingPathComponent("bad.xspf")
        try Data([0x3C, 0x70, 0x6C, 0x61, 0x79, 0xFF, 0xFE, 0x3E]).write(to: bad)
        #expect(QueueSources.expand([bad.path]).isEmpty)
    }

    @Test("An XSPF of 100,000 tracks is 100,000 items in order (M3U's are HostileQueueTests')")
    func large() throws {
        let dir = try Self.folder([])
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let items = (0..<100_000).map { MediaSource(path: dir.appendingPathComponent("clip \($0).mp4").path) }
        let path = dir.appendingPathComponent("big.xspf").path
        try PlaylistFile.write(items, to: path)
        let read = QueueSources.expand([path])
        #expect(read.count == items.count)
        #expect(read.first == items.first?.description && read.last == items.last?.description)
    }
}
