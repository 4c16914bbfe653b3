@testable import ReelApp
import Testing

/// What Reel lists of what was played, without GTK: the order, each once, gone files left out,
/// the lines under the names and the menu's labels; and what Open an Address takes from the
/// clipboard.
/// Threading: any; no window.
@Suite("Recent files and addresses: what is listed")
struct RecentListTests {
    static func file(_ path: String, played: Int64, exists: Bool = true, name: String? = nil) -> RecentEntry {
        RecentEntry(uri: "file://" + path, source: path, name: name ?? String(path.split(separator: "/").last!),
                    played: played, isRemote: false, exists: exists)
    }

    static func address(_ url: String, played: Int64, name: String = "A film") -> RecentEntry {
        RecentEntry(uri: url, source: url, name: name, played: played, isRemote: true, exists: true)
    }

    @Test("Newest first, each once, files that went left out, at most the limit")
    func order() {
        let entries = [
            Self.file("/films/a.mp4", played: 10),
            Self.file("/films/gone.mp4", played: 50, exists: false),
            Self.address("https://example.com/b.mp4", played: 30),
            Self.file("/films/c.mp4", played: 20),
            Self.file("/films/a.mp4", played: 5),
            Self.file("/films/d.mp4", played: 1),
        ]
        #expect(RecentList.pick(entries, limit: 10).map(\.source) == ["https://example.com/b.mp4", "/films/c.mp4", "/films/a.mp4", "/films/d.mp4"])
        #expect(RecentList.pick(entries, limit: 2).map(\.source) == ["https://example.com/b.mp4", "/films/c.mp4"])
        #expect(RecentList.pick(entries, limit: 10, addressesOnly: true).map(\.source) == ["https://example.com/b.mp4"])
        #expect(RecentList.pick([], limit: 10).isEmpty)
    }

    @Test("Played at the same second, the recent list's own order holds")
    func ties() {
        let entries = [Self.file("/films/x.mp4", played: 7), Self.file("/films/y.mp4", played: 7)]
        #expect(RecentList.pick(entries, limit: 10).map(\.source) == ["/films/x.mp4", "/films/y.mp4"])
    }

    @Test("Under the name: the folder, home as ~; an address's server", arguments: [
        ("/home/ann/Videos/a.mp4", "~/Videos"),
        ("/home/ann/a.mp4", "~"),
        ("/home/anne/a.mp4", "/home/anne"),
        ("/media/disk/a.mp4", "/media/disk"),
    ])
    func detail(path: String, shown: String) {
        #expect(Self.file(path, played: 0).detail(home: "/home/ann") == shown)
    }

    @Test("An address's line is its server")
    func addressDetail() {
        #expect(Self.address("https://videos.example.org:8443/x/y.mp4", played: 0).detail(home: "/home/ann") == "videos.example.org")
    }

    @Test("Menu labels: underscores shown as they are, a long name shortened in the middle")
    func labels() {
        #expect(Self.file("/f/my_holiday_film.mp4", played: 0).menuLabel == "my__holiday__film.mp4")
        let long = String(repeating: "a", count: 40) + String(repeating: "b", count: 40) + ".mkv"
        let label = Self.file("/f/" + long, played: 0).menuLabel
        #expect(label.count == RecentEntry.longestLabel - 1)
        #expect(label.hasPrefix("aaaa") && label.hasSuffix("bb.mkv") && label.contains("…"))
        #expect(Self.file("/f/short.mp4", played: 0).menuLabel == "short.mp4")
    }

    @Test("The clipboard's text is offered when it is a web address alone", arguments: [
        ("https://example.com/film.mp4", "https://example.com/film.mp4"),
        ("  http://127.0.0.1:8080/a.m3u8\n", "http://127.0.0.1:8080/a.m3u8"),
    ])
    func offered(text: String, offered: String) {
        #expect(ClipboardAddress.offer(text) == offered)
    }

    @Test("Anything else is not offered", arguments: [
        nil, "", "hello", "see https://example.com/film.mp4", "https://example.com/a.mp4 https://example.com/b.mp4",
        "/etc/passwd", "file:///etc/passwd", "ftp://example.com/a.mp4", "https://", "correct horse battery staple",
        "https://example.com/" + String(repeating: "a", count: 5000),
    ])
    func notOffered(text: String?) {
        #expect(ClipboardAddress.offer(text) == nil)
    }
}
