import Foundation
import ReelTestSupport
@testable import ReelEngine
import Testing

/// `reel-thumbnailer` as a file manager runs it: the command line of the installed
/// `.thumbnailer` file with `%s %u %o` filled in, inside bubblewrap as GNOME's thumbnail factory
/// (gnome-desktop 43, Debian 12) sandboxes it: /usr and the loader's files read-only, the video
/// bound read-only into a private /tmp that is the output folder, every namespace unshared (no
/// network). Judged by FFmpeg's own picture of the key frame it should show.
/// Whether bubblewrap can make its namespaces on this machine (as root, or with user namespaces
/// allowed); the thumbnailer's suite is skipped only when it cannot.
/// Threading: a constant, computed once.
enum ThumbnailerSandbox {
    static let works: Bool = {
        guard Command.exists("bwrap") else { return false }
        let result = try? Command.run(["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--", "true"], check: false)
        return result?.status == 0
    }()
}

/// Whether GNOME's own thumbnail factory can be driven here: gnome-desktop's introspection data
/// for Debian's python3, and a private mount namespace (root, or user namespaces) in which the
/// build's reel-thumbnailer can appear under /usr, the only prefix its sandbox shows.
/// Threading: a constant, computed once.
enum GnomeThumbnailFactory {
    static let python = "/usr/bin/python3"
    /// Empty folders of Debian's /usr (base-files makes them), covered in the private mount
    /// namespace by the build's binary and by the Swift runtime it links (a debug build's).
    static let binFolder = "/usr/local/games"
    static let runtimeFolder = "/usr/local/src"

    static let works: Bool = {
        guard ThumbnailerSandbox.works, FileManager.default.fileExists(atPath: binFolder),
              FileManager.default.fileExists(atPath: runtimeFolder),
              let gi = try? Command.run([python, "-c", "import gi; gi.require_version('GnomeDesktop', '4.0')"], check: false),
              gi.status == 0 else { return false }
        return (try? Command.run(unshare + ["true"], check: false))?.status == 0
    }()

    static var unshare: [String] { getuid() == 0 ? ["unshare", "--mount"] : ["unshare", "--map-root-user", "--mount"] }

    /// Asks gnome-desktop's factory for the large thumbnail of `uri` (`mime`) and saves it to the
    /// private cache; prints the saved path.
    static let script = """
        import gi, os, sys
        gi.require_version('GnomeDesktop', '4.0')
        from gi.repository import GnomeDesktop
        path, uri, mime = sys.argv[1], sys.argv[2], sys.argv[3]
        size = GnomeDesktop.DesktopThumbnailSize.LARGE
        factory = GnomeDesktop.DesktopThumbnailFactory.new(size)
        mtime = int(os.stat(path).st_mtime)
        if not factory.can_thumbnail(uri, mime, mtime):
            sys.exit('no thumbnailer for ' + mime)
        picture = factory.generate_thumbnail(uri, mime, None)
        factory.save_thumbnail(picture, uri, mtime, None)
        print(GnomeDesktop.desktop_thumbnail_path_for_uri(uri, size))
        """
}

@Suite("Thumbnailer", .serialized, .enabled(if: ThumbnailerSandbox.works, "bwrap cannot make namespaces here"))
struct ThumbnailerTests {
    static let binary = ReelToolTests.built("reel-thumbnailer")
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let entryFile = root.appendingPathComponent("data/io.github.reel.Reel.thumbnailer").path
    static let desktopFile = root.appendingPathComponent("data/io.github.reel.Reel.desktop").path

    /// A `[Thumbnailer Entry]` key's value.
    static func entry(_ key: String, in file: String = entryFile) throws -> String {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(key + "=") }, "no \(key) in \(file)")
        return String(line.dropFirst(key.count + 1))
    }

    /// What one run left: its exit status and stderr, the PNG's pixels when there is one, and
    /// every other file the thumbnailer left in its output folder.
    struct Run {
        let result: Command.Result
        let png: (width: Int, height: Int, rgba: Data)?
        let leftovers: [String]
    }

    /// Runs the entry's Exec line on `path` at `size` as gnome-desktop's
    /// gnome-desktop-thumbnail-script.c does: a fresh output folder bound as the sandbox's /tmp,
    /// the input bound read-only inside it under gnome-desktop's name (keeping the extension),
    /// `%u` its file:// URI, `%o` a PNG beside it. The build folder's reel-thumbnailer is bound
    /// where an installed one would be found, and outside /usr, the Swift runtime it links.
    static func thumbnail(_ path: String, size: Int) throws -> Run {
        let folder = try #require(mkdtemp(strdup(NSTemporaryDirectory() + "/gnome-desktop-thumbnailer-XXXXXX")).map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ext = (path as NSString).pathExtension
        let inside = "/tmp/gnome-desktop-file-to-thumbnail." + (ext.isEmpty ? "" : ext)
        let output = "/tmp/gnome-desktop-thumbnailer.png"
        let exec = try entry("Exec").split(separator: " ").map { word -> String in
            switch word {
            case "%s": String(size)
            case "%u": URL(fileURLWithPath: inside).absoluteString
            case "%o": output
            default: String(word)
            }
        }
        var sandbox = ["bwrap", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"]
        for dir in ["bin", "lib64", "lib", "sbin"] where FileManager.default.fileExists(atPath: "/" + dir) {
            let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/" + dir)) ?? ""
            sandbox += resolved.hasPrefix("usr/") || resolved.hasPrefix("/usr/")
                ? ["--symlink", "/usr/" + dir, "/" + dir] : ["--ro-bind", "/" + dir, "/" + dir]
        }
        sandbox += ["--ro-bind-try", "/etc/alternatives", "/etc/alternatives",
                    "--proc", "/proc", "--dev", "/dev", "--chdir", "/", "--setenv", "GIO_USE_VFS", "local",
                    "--unshare-all", "--die-with-parent"]
        sandbox += ["--ro-bind", binary, "/opt/reel/bin/reel-thumbnailer", "--setenv", "PATH", "/opt/reel/bin:/usr/bin"]
        for library in try runtimeFolders() { sandbox += ["--ro-bind", library, library] }
        sandbox += ["--bind", folder, "/tmp", "--ro-bind", path, inside]
        let result = try Command.run(sandbox + exec, check: false)
        let written = folder + "/" + (output as NSString).lastPathComponent
        let leftovers = (try FileManager.default.contentsOfDirectory(atPath: folder)).filter {
            $0 != (inside as NSString).lastPathComponent && $0 != (output as NSString).lastPathComponent
        }
        guard FileManager.default.fileExists(atPath: written) else { return Run(result: result, png: nil, leftovers: leftovers) }
        return Run(result: result, png: try pixels(of: written), leftovers: leftovers)
    }

    /// Folders outside /usr holding libraries the built binary loads (the toolchain's Swift runtime).
    static func runtimeFolders() throws -> [String] {
        let listing = try Command.run(["ldd", binary]).output
        let folders = listing.split(separator: "\n").compactMap { line -> String? in
            guard let arrow = line.range(of: "=> /") else { return nil }
            let path = line[line.index(before: arrow.upperBound)...].split(separator: " ").first.map(String.init) ?? ""
            return (path as NSString).deletingLastPathComponent
        }
        return Array(Set(folders.filter { !$0.hasPrefix("/usr/") && !$0.hasPrefix("/lib") })).sorted()
    }

    /// A PNG's size and RGBA pixels as FFmpeg reads it.
    static func pixels(of png: String) throws -> (width: Int, height: Int, rgba: Data) {
        let size = try Command.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", png])
            .output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        let rgba = try Command.run(["ffmpeg", "-v", "error", "-nostdin", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgba", "-"]).stdout
        try #require(size.count == 2 && rgba.count == size[0] * size[1] * 4, "\(png) is not a whole picture")
        return (size[0], size[1], rgba)
    }

    /// The key frame nearest a tenth of the way in (ffprobe's duration and key packets): the
    /// picture a clip that does not open dark shows.
    static func firstCandidate(_ path: String) throws -> Double {
        let duration = try #require(Double(try Command.run(["ffprobe", "-v", "error", "-show_entries", "format=duration",
                                                            "-of", "csv=p=0", path]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        return ThumbnailOracle.nearest(try keyPackets(path), to: duration / 10)
    }

    /// Presentation times of the video stream's key packets, from the container's start, as
    /// ffprobe reads them: decoders that ignore `-skip_frame nokey` (libvpx, libdav1d) would
    /// make every frame a key frame to `ThumbnailOracle.keyFrames`.
    static func keyPackets(_ path: String) throws -> [Double] {
        let start = Double(try Command.run(["ffprobe", "-v", "error", "-show_entries", "format=start_time",
                                            "-of", "csv=p=0", path]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let packets = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0",
                                       "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", path]).output
        return packets.split(separator: "\n").compactMap { line -> Double? in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, fields[1].hasPrefix("K"), let pts = Double(fields[0]) else { return nil }
            return pts - start
        }.sorted()
    }

    /// 2 s of black, then testsrc2 fading in over 3 s and shown for 5 s more; a key frame every
    /// half second. The first candidate (1 s) is black; the second (2.5 s) a sixth of the way
    /// into the fade, nearly black; the third (4 s) two thirds in, a picture.
    static let opensOnBlack = Fixtures.Spec(name: "opens-on-black-fade", ext: "mp4", arguments: [
        "-f", "lavfi", "-i", "color=c=black:s=640x360:r=24:d=2",
        "-f", "lavfi", "-i", "testsrc2=s=640x360:r=24:d=8",
        "-filter_complex", "[1]fade=t=in:st=0:d=3[in];[0][in]concat=n=2:v=1[v]", "-map", "[v]",
        "-c:v", "libx264", "-preset", "veryfast", "-g", "12", "-keyint_min", "12", "-sc_threshold", "0",
        "-bf", "0", "-pix_fmt", "yuv420p",
    ])

    @Test("The thumbnailer file runs reel-thumbnailer on every video type the desktop file opens")
    func mimeTypes() throws {
        #expect(try Self.entry("TryExec") == "reel-thumbnailer")
        #expect(try Self.entry("Exec") == "reel-thumbnailer -s %s %u %o")
        let thumbnailed = try Self.entry("MimeType").split(separator: ";").map(String.init)
        let opened = try Self.entry("MimeType", in: Self.desktopFile).split(separator: ";").map(String.init)
        // Containers of video registered under application/ (the rest there are playlists).
        let videoContainers: Set = ["application/x-matroska", "application/ogg", "application/vnd.ms-asf",
                                    "application/vnd.rn-realmedia", "application/mxf"]
        let videos = opened.filter { $0.hasPrefix("video/") || videoContainers.contains($0) }
        #expect(thumbnailed == videos, "the thumbnailer's types are not the desktop file's video types")
        #expect(videos.count >= 20 && videoContainers.isSubset(of: Set(opened)))
        let playlists: Set = ["application/vnd.apple.mpegurl", "application/x-mpegurl", "application/dash+xml",
                              "application/xspf+xml"]
        for type in opened where !videos.contains(type) {
            let sound = type.hasPrefix("audio/") || type == "application/x-shorten"
            #expect(sound || playlists.contains(type), "\(type) is neither thumbnailed nor sound or a playlist")
        }
    }

    @Test("Long side = SIZE and FFmpeg's picture of the key frame a tenth of the way in", arguments: [
        (Fixtures.Spec.h264MP4, 256), (.hevcMKV, 128), (.vp9WebM, 512), (.av1MP4, 200),
    ])
    func picture(_ spec: Fixtures.Spec, size: Int) throws {
        let path = try Fixtures.path(spec)
        let run = try Self.thumbnail(path, size: size)
        #expect(run.result.status == 0, "\(spec.name): \(run.result.errors)")
        let png = try #require(run.png, "\(spec.name): no PNG")
        #expect(max(png.width, png.height) == size, "\(spec.name): \(png.width)×\(png.height)")
        #expect(run.leftovers.isEmpty, "\(spec.name) left \(run.leftovers)")
        let time = try Self.firstCandidate(path)
        let right = try ThumbnailOracle.picture(path, at: time, width: png.width, height: png.height)
        let psnr = ThumbnailOracle.psnr(png.rgba, right)
        #expect(psnr >= ThumbnailTests.samePicture, "\(spec.name): \(psnr) dB against FFmpeg's key frame at \(time) s")
    }

    @Test("Non-square pixels and rotation: the displayed shape, and FFmpeg's picture the right way up")
    func displayShape() throws {
        // 320×180 shown 2:1 wide (640×180); 320×240 turned a quarter (240×320).
        for (path, width, height) in [(try Fixtures.path(.anamorphic), 256, 72), (try ThumbnailTests.rotatedFixture(), 192, 256)] {
            let run = try Self.thumbnail(path, size: 256)
            let png = try #require(run.png, "\(path): \(run.result.errors)")
            #expect(png.width == width && png.height == height, "\(path): \(png.width)×\(png.height), expected \(width)×\(height)")
            let time = try Self.firstCandidate(path)
            let right = try ThumbnailOracle.picture(path, at: time, width: png.width, height: png.height)
            #expect(ThumbnailOracle.psnr(png.rgba, right) >= ThumbnailTests.samePicture, "\(path)")
            let turned = PictureRotation.rotate(png.rgba, width: png.width, height: png.height, clockwise: 180)
            #expect(ThumbnailOracle.psnr(turned.pixels, right) < ThumbnailTests.samePicture, "\(path): upside down passes too")
        }
    }

    @Test("A clip that opens on black and fades in gets the picture after the fade, not black")
    func passesOverBlackAndFade() throws {
        let path = try Fixtures.path(Self.opensOnBlack)
        let keys = try Self.keyPackets(path)
        #expect(keys.contains(1) && keys.contains(2.5) && keys.contains(4), "key frames \(keys)")
        let run = try Self.thumbnail(path, size: 256)
        let png = try #require(run.png, "no PNG: \(run.result.errors)")
        #expect(run.result.status == 0)
        // Not black: a third of testsrc2's brightness at least (FFmpeg's reading of the PNG).
        var sum = 0.0
        for i in stride(from: 0, to: png.rgba.count, by: 4) {
            let r = Double(png.rgba[i]), g = Double(png.rgba[i + 1]), b = Double(png.rgba[i + 2])
            sum += 0.2126 * r + 0.7152 * g + 0.0722 * b
        }
        let mean = sum / Double(png.rgba.count / 4)
        #expect(mean > 40, "the thumbnail's mean luma is \(mean)")
        func psnr(at time: Double) throws -> Double {
            ThumbnailOracle.psnr(png.rgba, try ThumbnailOracle.picture(path, at: time, width: png.width, height: png.height))
        }
        #expect(try psnr(at: 4) >= ThumbnailTests.samePicture, "not the key frame at 4 s, two thirds into the fade")
        #expect(try psnr(at: 1) < ThumbnailTests.samePicture, "the black frame at 1 s passes for it")
        #expect(try psnr(at: 2.5) < ThumbnailTests.samePicture, "the nearly black fade at 2.5 s passes for it")
    }

    @Test("HDR10 is drawn tone-mapped: libplacebo's BT.2390 picture at the thumbnail's size")
    func toneMapped() throws {
        let path = try Fixtures.path(.pqWithMetadata)
        let run = try Self.thumbnail(path, size: 320)
        let png = try #require(run.png, "no PNG: \(run.result.errors)")
        #expect(png.width == 320 && png.height == 180)
        // A one-second clip with one key frame, the first.
        let reference = try PlaceboOracle.reference(of: path, frame: 0, variant: .tight, size: (png.width, png.height))
        let oracle = try Self.pixels(of: reference).rgba
        let psnr = ThumbnailOracle.psnr(png.rgba, oracle)
        #expect(psnr >= ToneMappedThumbnailTests.bar, "\(psnr) dB against libplacebo's tone-mapped picture")
    }

    @Test("GNOME's thumbnail factory (gnome-desktop 43, its bwrap and seccomp filter) makes and caches the picture",
          .enabled(if: GnomeThumbnailFactory.works, "no gnome-desktop introspection data or no mount namespace here"))
    func gnomeFactory() throws {
        let home = Fixtures.directory.appendingPathComponent("gnome-factory-\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        let bin = home.appendingPathComponent("bin"), thumbnailers = home.appendingPathComponent("share/thumbnailers")
        for folder in [bin, thumbnailers, home.appendingPathComponent("cache")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: Self.binary, toPath: bin.appendingPathComponent("reel-thumbnailer").path)
        try FileManager.default.copyItem(atPath: Self.entryFile, toPath: thumbnailers.appendingPathComponent("io.github.reel.Reel.thumbnailer").path)
        // The clip that opens on black: the factory's picture must be the one after the fade.
        let clip = home.appendingPathComponent("clip.mp4")
        try FileManager.default.copyItem(atPath: try Fixtures.path(Self.opensOnBlack), toPath: clip.path)
        // In a private mount namespace the build's binary appears under /usr, where the factory's
        // sandbox and the PATH it searches see it; the .thumbnailer file comes from the data home.
        // The Swift runtime a debug build links lies outside /usr (an installed build has it inside).
        let runtime = try Self.runtimeFolders()
        try #require(runtime.count <= 1, "the runtime lies in several folders: \(runtime)")
        let runtimeMount = runtime.first.map {
            "mount --bind \(Command.shellQuote($0)) \(GnomeThumbnailFactory.runtimeFolder) && "
        } ?? ""
        let inner = "mount --make-rprivate / && mount --bind \"$1\" \(GnomeThumbnailFactory.binFolder) && " + runtimeMount
            + "exec env PATH=\(GnomeThumbnailFactory.binFolder):/usr/bin:/bin LD_LIBRARY_PATH=\(GnomeThumbnailFactory.runtimeFolder) "
            + "XDG_DATA_HOME=\"$2\" XDG_DATA_DIRS=/usr/share XDG_CACHE_HOME=\"$3\" \(GnomeThumbnailFactory.python) -c \"$4\" \"$5\" \"$6\" video/mp4"
        let result = try Command.run(GnomeThumbnailFactory.unshare + [
            "sh", "-c", inner, "sh", bin.path, home.appendingPathComponent("share").path, home.appendingPathComponent("cache").path,
            GnomeThumbnailFactory.script, clip.path, clip.absoluteString,
        ], check: false)
        #expect(result.status == 0, "\(result.output)\(result.errors.suffix(2000))")
        let saved = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(saved.hasPrefix(home.appendingPathComponent("cache/thumbnails/large").path), "saved to \(saved)")
        let png = try Self.pixels(of: saved)
        #expect(png.width == 256 && png.height == 144, "\(png.width)×\(png.height)")
        let right = try ThumbnailOracle.picture(clip.path, at: 4, width: png.width, height: png.height)
        #expect(ThumbnailOracle.psnr(png.rgba, right) >= ThumbnailTests.samePicture, "not the key frame after the fade")
    }

    @Test("A name with spaces and other characters, as a file:// URI with escapes (%u) and as a path")
    func escapedNames() throws {
        let folder = Fixtures.directory.appendingPathComponent("thumbnailer names")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = folder.appendingPathComponent("Summer #1 (été) 100%.mp4")
        if !FileManager.default.fileExists(atPath: clip.path) {
            try FileManager.default.copyItem(atPath: try Fixtures.path(.h264MP4), toPath: clip.path)
        }
        for input in [clip.absoluteString, clip.path] {
            let png = folder.appendingPathComponent("out.png").path
            try? FileManager.default.removeItem(atPath: png)
            let result = try Command.run([Self.binary, "-s", "64", input, png], check: false)
            #expect(result.status == 0, "\(input): \(result.errors)")
            let picture = try Self.pixels(of: png)
            #expect(picture.width == 64 && picture.height == 36, "\(input): \(picture.width)×\(picture.height)")
        }
        #expect(clip.absoluteString.contains("%20") && clip.absoluteString.contains("%23"), "\(clip.absoluteString)")
    }

    @Test("Empty, missing, truncated and not media: exit status 1, one line, no file")
    func unreadable() throws {
        let empty = Fixtures.directory.appendingPathComponent("thumbnailer-empty.mp4").path
        FileManager.default.createFile(atPath: empty, contents: Data())
        let text = Fixtures.directory.appendingPathComponent("thumbnailer-text.mkv").path
        try Data(String(repeating: "not a video\n", count: 200).utf8).write(to: URL(fileURLWithPath: text))
        let truncated = try Fixtures.derived("thumbnailer-truncated-2k", ext: "mp4", from: .h264MP4) { source, destination in
            let data = try Data(contentsOf: URL(fileURLWithPath: source))
            try data.prefix(2048).write(to: URL(fileURLWithPath: destination))
        }
        for path in [empty, text, truncated] {
            let run = try Self.thumbnail(path, size: 256)
            #expect(run.result.status == 1, "\(path): status \(run.result.status)")
            #expect(run.png == nil && run.leftovers.isEmpty, "\(path) left a file")
            let said = run.result.errors.split(separator: "\n")
            #expect(said.count == 1 && said[0].hasPrefix("reel-thumbnailer: "), "\(path): \(run.result.errors)")
        }
        // Missing: gnome-desktop would not get this far; run straight.
        let missing = try Command.run([Self.binary, "-s", "128", "/nonexistent/video.mp4", Fixtures.directory.path + "/never.png"],
                                      check: false)
        #expect(missing.status == 1 && !FileManager.default.fileExists(atPath: Fixtures.directory.path + "/never.png"))
    }

    @Test("zzuf-damaged files: status 1 and no file, or status 0 and a whole picture of the size asked")
    func damaged() throws {
        // Honest outcomes: damage that leaves a key frame decodable gives a picture (as FFmpeg
        // shows one); any other gives status 1 and nothing. Never a crash, a partial file or a
        // temporary left behind.
        var failed = 0
        for (spec, seed) in [(Fixtures.Spec.h264MP4, 1), (.h264MP4, 2), (.hevcMKV, 3), (.hevcMKV, 4), (.vp9WebM, 5), (.h264TS, 6)] {
            let path = try Fixtures.derived("thumbnailer-zzuf-\(seed)", ext: spec.ext, from: spec) { source, destination in
                let damaged = try Command.run(["sh", "-c", "zzuf -s \(seed) -r 0.02 < \(Command.shellQuote(source))"]).stdout
                try damaged.write(to: URL(fileURLWithPath: destination))
            }
            let run = try Self.thumbnail(path, size: 160)
            #expect(run.leftovers.isEmpty, "\(path) left \(run.leftovers)")
            switch run.result.status {
            case 0:
                let png = try #require(run.png, "\(path): status 0 without a PNG")
                #expect(max(png.width, png.height) == 160)
            case 1:
                failed += 1
                #expect(run.png == nil, "\(path): status 1 with a PNG")
                #expect(run.result.errors.split(separator: "\n").count == 1, "\(path): \(run.result.errors)")
            default:
                Issue.record("\(path): status \(run.result.status): \(run.result.errors.suffix(500))")
            }
        }
        #expect(failed >= 2, "the damage left \(6 - failed) of 6 files readable: the failing path went untested")
    }
}
