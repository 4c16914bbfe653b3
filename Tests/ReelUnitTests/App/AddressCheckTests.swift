@testable import ReelApp
import Testing

/// What the Open an Address entry takes and what it says of the rest, without a window: the
/// addresses Reel plays, full paths of files that exist, and a named problem for anything else.
/// Threading: any; no window.
@Suite("Open an Address: what the entry takes")
struct AddressCheckTests {
    /// A file system holding `/films/a.mp4` and the home folder `/home/ann` with `clip.mkv`.
    static func exists(_ path: String) -> Bool { ["/films/a.mp4", "/home/ann/clip.mkv", "/films"].contains(path) }

    static func check(_ text: String) -> AddressCheck { AddressCheck.check(text, home: "/home/ann", fileExists: exists) }

    @Test("Web addresses are taken as typed, spaces around them left out", arguments: [
        ("https://example.com/film.mp4", "https://example.com/film.mp4"),
        ("http://127.0.0.1:8080/a/b.m3u8", "http://127.0.0.1:8080/a/b.m3u8"),
        ("  HTTPS://Example.com/x  ", "HTTPS://Example.com/x"),
    ])
    func webAddresses(text: String, taken: String) {
        #expect(Self.check(text) == .valid(taken))
    }

    @Test("Files are taken by full path, file URI or from the home folder, when they exist", arguments: [
        ("/films/a.mp4", "/films/a.mp4"),
        ("file:///films/a.mp4", "file:///films/a.mp4"),
        ("~/clip.mkv", "/home/ann/clip.mkv"),
        ("/films", "/films"),
    ])
    func files(text: String, taken: String) {
        #expect(Self.check(text) == .valid(taken))
    }

    @Test("Anything else is refused with what is wrong", arguments: [
        ("not a url", AddressCheck.Problem.notAnAddress),
        ("film.mp4", .notAnAddress),
        ("example.com/film.mp4", .notAnAddress),
        ("C:film.mp4", .notAnAddress),
        ("/films/missing.mp4", .noSuchFile),
        ("~/missing.mkv", .noSuchFile),
        ("file:///films/missing.mp4", .noSuchFile),
        ("https://", .noServer),
        ("http:///film.mp4", .noServer),
        ("ftp://example.com/film.mp4", .unsupportedScheme("ftp")),
        ("rtmp://example.com/live", .unsupportedScheme("rtmp")),
        ("smb://nas/films/a.mp4", .unsupportedScheme("smb")),
    ])
    func refused(text: String, problem: AddressCheck.Problem) {
        let verdict = Self.check(text)
        #expect(verdict == .invalid(problem), "\(text): \(verdict)")
        #expect(verdict.message?.isEmpty == false)
        #expect(!verdict.isValid)
    }

    @Test("An empty entry is neither taken nor complained of")
    func empty() {
        for text in ["", "   ", "\n"] {
            #expect(Self.check(text) == .empty)
            #expect(Self.check(text).message == nil)
            #expect(!Self.check(text).isValid)
        }
    }
}
