import Foundation
@testable import ReelEngine
import Testing

/// What a path or URL handed to Reel becomes: one absolute path per file, whatever way it was
/// named, so that the queue, the resume history and the title agree on it.
@Suite("Media sources")
struct MediaSourceTests {
    /// A folder with a file, a link to it and a link to the folder.
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-source-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: dir.appendingPathComponent("sub/film.mp4"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.mp4").path,
                                                   withDestinationPath: "sub/film.mp4")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("alias").path,
                                                   withDestinationPath: dir.appendingPathComponent("sub").path)
        return dir
    }

    static func path(_ source: MediaSource) -> String? {
        if case .file(let path) = source.location { return path }
        return nil
    }

    @Test("A file named through folder links, `.`, `..`, a file URI or relatively is one and the same path; a link to a file keeps its name")
    func oneFileOnePath() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let real = dir.appendingPathComponent("sub/film.mp4").path
        let names = [
            real,
            dir.path + "/alias/film.mp4",
            dir.path + "/sub/./../sub//film.mp4",
            "file://" + real,
        ]
        for name in names {
            #expect(Self.path(try MediaSource(parsing: name)) == real, "\(name)")
        }
        // Relative to the working directory (left as it is: other tests run in this process).
        let relative = Self.relative(from: FileManager.default.currentDirectoryPath, to: dir.path)
        #expect(Self.path(try MediaSource(parsing: relative + "/sub/film.mp4")) == real)
        // The name a person gave the film (a link) is what the window shows; its folder is resolved.
        let link = dir.resolvingSymlinksInPath().path + "/link.mp4"
        for name in [dir.path + "/alias/../link.mp4", relative + "/link.mp4"] {
            let got = Self.path(try MediaSource(parsing: name))
            #expect(got == link, "\(name) became \(got ?? "a URL")")
        }
    }

    /// `to` named from `from` with `..` steps (both absolute).
    static func relative(from: String, to: String) -> String {
        let a = from.split(separator: "/"), b = to.split(separator: "/")
        var common = 0
        while common < min(a.count, b.count) && a[common] == b[common] { common += 1 }
        return (Array(repeating: "..", count: a.count - common) + b[common...].map(String.init)).joined(separator: "/")
    }

    @Test("A path that does not exist keeps its name, with `.` and `..` taken out")
    func missingFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Self.path(try MediaSource(parsing: dir.path + "/sub/../gone.mp4")) == dir.path + "/gone.mp4")
        #expect(Self.path(try MediaSource(parsing: "/nowhere/./a/../b.mkv")) == "/nowhere/b.mkv")
    }
}
