import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ReelGtk
import ReelTestSupport
import Testing

/// Reel as the desktop sees it: its data files pass the freedesktop and GNOME validators, its
/// icons render, and after `scripts/install-user.sh` a double-click (`gio open`) on a video
/// starts the installed Reel playing it, until `scripts/uninstall-user.sh` takes it all away.
@Suite("Desktop integration")
struct DesktopIntegrationTests {
    /// The repository: Tests/ReelWindowTests/<this file> → three levels up.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let id = "io.github.reel.Reel"

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    // MARK: Validators

    @Test("The desktop file passes desktop-file-validate without a warning or hint, and claims the video types")
    func desktopFile() throws {
        let file = Self.path("data/\(Self.id).desktop")
        let result = try Command.run(["desktop-file-validate", file], check: false)
        #expect(result.status == 0 && (result.output + result.errors).isEmpty,
                "desktop-file-validate: \(result.output)\(result.errors)")
        let entry = try String(contentsOfFile: file, encoding: .utf8)
        let keys = Self.keys(of: entry)
        #expect(keys["Exec"] == "reel %U")
        #expect(keys["Icon"] == Self.id)
        let types = Set((keys["MimeType"] ?? "").split(separator: ";").map(String.init))
        for type in ["video/mp4", "video/x-matroska", "video/webm", "video/x-msvideo", "video/quicktime",
                     "video/ogg", "video/mp2t", "application/vnd.apple.mpegurl", "application/x-mpegurl",
                     "audio/x-mpegurl", "application/dash+xml", "video/mpeg", "video/3gpp", "video/x-flv", "video/x-ms-wmv"] {
            #expect(types.contains(type), "MimeType lacks \(type)")
        }
    }

    @Test("The AppStream metainfo passes appstreamcli validate with no error, warning or info")
    func metainfo() throws {
        let result = try Command.run(["appstreamcli", "validate", "--no-net",
                                      Self.path("data/\(Self.id).metainfo.xml")], check: false)
        var issues = result.output.split(separator: "\n").filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") || $0.hasPrefix("I:") }
        // <developer> is AppStream 1.0's; a validator before 1.0 notes it as unknown, and only that.
        let version = try Command.run(["appstreamcli", "--version"]).output
        if version.contains("version: 0.") {
            issues.removeAll { $0.hasPrefix("I: \(Self.id):") && $0.hasSuffix(": unknown-tag developer") }
        }
        #expect(result.status == 0 && issues.isEmpty, "appstreamcli: \(result.output)\(result.errors)")
    }

    @Test("The GSettings schema compiles with glib-compile-schemas --strict")
    func schema() throws {
        let result = try Command.run(["glib-compile-schemas", "--strict", "--dry-run", Self.path("data")], check: false)
        #expect(result.status == 0 && result.errors.isEmpty, "glib-compile-schemas: \(result.output)\(result.errors)")
    }

    @Test("Every GtkBuilder file loads with libadwaita's classes known, and those without them pass gtk4-builder-tool validate")
    func builderFiles() throws {
        let folder = Self.path("data/ui")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ui") }.sorted()
        #expect(files.count >= 5, "ui files: \(files)")
        // Both open the display to build the widgets they check.
        let desktop = try Desktop(width: 640, height: 480)
        // gtk4-builder-tool cannot load libadwaita's classes: reel-ui-check builds every
        // file after adw_init, as Reel does.
        var withAdwaita: [String] = []
        for name in files {
            let path = folder + "/" + name
            let loaded = try desktop.run([ReelApp.built("reel-ui-check"), path], check: false)
            #expect(loaded.status == 0 && (loaded.output + loaded.errors).isEmpty,
                    "\(name): reel-ui-check status \(loaded.status): \(loaded.output)\(loaded.errors)")
            if try String(contentsOfFile: path, encoding: .utf8).contains("class=\"Adw") {
                withAdwaita.append(name)
                continue
            }
            let result = try desktop.run(["gtk4-builder-tool", "validate", path], check: false)
            #expect(result.status == 0 && (result.output + result.errors).isEmpty,
                    "\(name): status \(result.status): \(result.output)\(result.errors)")
        }
        #expect(withAdwaita.contains("preferences.ui"), "files with libadwaita's classes: \(withAdwaita)")
    }

    @Test("reel-ui-check refuses a GtkBuilder file with an unknown class or property")
    func builderCheckRefuses() throws {
        let desktop = try Desktop(width: 640, height: 480)
        let good = try String(contentsOfFile: Self.path("data/ui/preferences.ui"), encoding: .utf8)
        for (what, broken) in [("an unknown class", good.replacingOccurrences(of: "\"AdwComboRow\"", with: "\"AdwComboRown\"")),
                               ("an unknown property", good.replacingOccurrences(of: "name=\"digits\"", with: "name=\"digit\""))] {
            #expect(broken != good)
            let file = desktop.home.appendingPathComponent("broken.ui")
            try broken.write(to: file, atomically: true, encoding: .utf8)
            let result = try desktop.run([ReelApp.built("reel-ui-check"), file.path], check: false)
            #expect(result.status != 0 && result.errors.contains("broken.ui"), "\(what): status \(result.status): \(result.errors)")
        }
    }

    @Test("The files Reel checks at startup are every GtkBuilder file in data/ui")
    func builderFilesChecked() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.path("data/ui")).filter { $0.hasSuffix(".ui") }
        #expect(Set(UIFile.allCases.map { $0.rawValue + ".ui" }) == Set(files))
    }

    // MARK: Icons

    @Test("The application icon renders at 16 and 128 pixels from a 128 px canvas")
    func applicationIcon() throws {
        let svg = Self.path("icons/hicolor/scalable/apps/\(Self.id).svg")
        #expect(try Self.renderedSize(svg) == (128, 128))
        for size in [16, 128] {
            #expect(try Self.renderedSize(svg, at: size) == (size, size))
        }
        try Self.expectGdkPixbufLoads(svg)
    }

    @Test("The symbolic icon is 16x16, one path colour (#2e3436), paths only")
    func symbolicIcon() throws {
        let svg = Self.path("icons/hicolor/symbolic/apps/\(Self.id)-symbolic.svg")
        #expect(try Self.renderedSize(svg) == (16, 16))
        try Self.expectGdkPixbufLoads(svg)
        let parsed = SVGOutline()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: svg)))
        parser.delegate = parsed
        #expect(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
        #expect(parsed.elements.subtracting(["svg", "path"]).isEmpty, "elements: \(parsed.elements.sorted())")
        #expect(parsed.rootAttributes["width"] == "16" && parsed.rootAttributes["height"] == "16"
                && parsed.rootAttributes["viewBox"] == "0 0 16 16", "svg: \(parsed.rootAttributes)")
        #expect(parsed.pathFills == ["#2e3436"], "path fills: \(parsed.pathFills)")
    }

    // MARK: Install, double-click, uninstall

    @Test("After install-user.sh, gio open on an .mp4 plays it in the installed Reel; uninstall-user.sh removes it all")
    func installOpenUninstall() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-install-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let prefix = scratch.appendingPathComponent("prefix")
        let share = prefix.appendingPathComponent("share")
        // The binaries this test run built, not a release build of its own.
        let built = URL(fileURLWithPath: ReelApp.binary).deletingLastPathComponent().path
        let install = [Self.path("scripts/install-user.sh"), "--no-build", "--bin-dir", built, "--prefix", prefix.path]
        try Command.run(install)
        try Command.run(install)  // A second run updates in place.

        let manifest = try String(contentsOf: share.appendingPathComponent("reel/installed-files"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(Set(manifest).count == manifest.count, "listed twice: \(manifest)")
        for file in ["bin/reel", "bin/reel-tool", "bin/reel-thumbnailer", "share/thumbnailers/\(Self.id).thumbnailer",
                     "share/man/man1/reel.1", "share/man/man1/reel-tool.1", "share/man/man1/reel-thumbnailer.1",
                     "share/reel/ui/window.ui", "share/reel/ui/preferences.ui",
                     "share/reel/style.css", "share/applications/\(Self.id).desktop",
                     "share/metainfo/\(Self.id).metainfo.xml", "share/glib-2.0/schemas/\(Self.id).gschema.xml",
                     "share/icons/hicolor/scalable/apps/\(Self.id).svg",
                     "share/icons/hicolor/symbolic/apps/\(Self.id)-symbolic.svg",
                     "share/dbus-1/services/\(Self.id).service"] {
            #expect(manifest.contains(file) && FileManager.default.fileExists(atPath: prefix.path + "/" + file),
                    "\(file) not installed")
        }
        #expect(!manifest.contains { $0.contains("demo") }, "the demo clip is not for installing")
        // The translations: compiled beside the binary's prefix, where the installed Reel finds
        // them by itself, and merged into the desktop file.
        for language in try TranslationCatalogTests.languages() {
            let catalog = "share/locale/\(language)/LC_MESSAGES/reel.mo"
            #expect(manifest.contains(catalog) && FileManager.default.fileExists(atPath: prefix.path + "/" + catalog),
                    "\(catalog) not installed")
        }
        let help = try Command.run([prefix.path + "/bin/reel", "--help"],
                                   environment: ["LANGUAGE": "de", "LC_ALL": "C.UTF-8", "REEL_LOCALE_DIR": ""])
        let fullscreen = try GermanWindowTests.german("Show the window fullscreen")
        #expect(help.output.contains(fullscreen), "the installed reel --help in German: \(help.output)")
        // The caches the desktop reads.
        #expect(FileManager.default.fileExists(atPath: share.path + "/glib-2.0/schemas/gschemas.compiled"))
        #expect(FileManager.default.fileExists(atPath: share.path + "/icons/hicolor/icon-theme.cache"))
        let mimeCache = (try? String(contentsOfFile: share.path + "/applications/mimeinfo.cache", encoding: .utf8)) ?? ""
        #expect(mimeCache.contains("video/mp4=\(Self.id).desktop"), "mimeinfo.cache: \(mimeCache.prefix(500))")
        // The installed desktop file names the installed binary, and is still valid.
        let installedEntry = share.path + "/applications/\(Self.id).desktop"
        let keys = Self.keys(of: try String(contentsOfFile: installedEntry, encoding: .utf8))
        #expect(keys["Exec"] == "\"\(prefix.path)/bin/reel\" %U")
        #expect(keys["TryExec"] == "\(prefix.path)/bin/reel")
        let validated = try Command.run(["desktop-file-validate", installedEntry], check: false)
        #expect(validated.status == 0 && (validated.output + validated.errors).isEmpty, "\(validated.output)\(validated.errors)")
        #expect(keys["DBusActivatable"] == "true")
        #expect(keys["Comment[de]"] == (try GermanWindowTests.german("Play videos and seek exactly where you point")),
                "the installed desktop file's German comment: \(keys["Comment[de]"] ?? "none")")
        // The bus starts the installed binary as a GApplication service.
        let service = try String(contentsOfFile: share.path + "/dbus-1/services/\(Self.id).service", encoding: .utf8)
        let serviceKeys = Self.keys(of: service, group: "D-BUS Service")
        #expect(serviceKeys["Name"] == Self.id)
        #expect(serviceKeys["Exec"] == "\"\(prefix.path)/bin/reel\" --gapplication-service")

        // The thumbnailer file names the installed thumbnailer, whose command line makes a PNG.
        let thumbnailerKeys = Self.keys(of: try String(contentsOfFile: share.path + "/thumbnailers/\(Self.id).thumbnailer",
                                                       encoding: .utf8), group: "Thumbnailer Entry")
        #expect(thumbnailerKeys["TryExec"] == "\(prefix.path)/bin/reel-thumbnailer")
        #expect(thumbnailerKeys["Exec"] == "\"\(prefix.path)/bin/reel-thumbnailer\" -s %s %u %o")
        let png = scratch.appendingPathComponent("thumbnail.png").path
        try Command.run([prefix.path + "/bin/reel-thumbnailer", "-s", "96",
                         URL(fileURLWithPath: try Fixtures.path(.longSmall)).absoluteString, png])
        #expect(FileManager.default.contents(atPath: png)?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "no PNG at \(png)")

        // A desktop whose data home is the installation's share folder; its private config
        // gets Reel as the default for MP4 ("Always open with"): mpv claims video/mp4 too.
        let desktop = try Desktop(dataHome: share)
        try desktop.shareEnvironmentWithBus()
        try desktop.run(["gio", "mime", "video/mp4", "\(Self.id).desktop"])
        let handlers = try desktop.run(["gio", "mime", "video/mp4"]).output
        #expect(handlers.contains("Default application for “video/mp4”: \(Self.id).desktop"), "\(handlers)")

        // A name with a space: the desktop file's %U hands Reel a file:// URI to decode.
        let clips = scratch.appendingPathComponent("Videos")
        try FileManager.default.createDirectory(at: clips, withIntermediateDirectories: true)
        let clip = clips.appendingPathComponent("Summer holiday.mp4")
        try FileManager.default.copyItem(atPath: try Fixtures.path(.longSmall), toPath: clip.path)
        try desktop.run(["gio", "open", clip.path])

        let app = try ReelApp(on: desktop, adoptingWindowNamed: "Summer holiday")
        try Desktop.wait("the title", timeout: 20) { app.title == "Summer holiday.mp4 – Reel" }
        #expect(app.title == "Summer holiday.mp4 – Reel")
        let running = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(app.pid)/exe")
        #expect(running == prefix.appendingPathComponent("bin/reel").resolvingSymlinksInPath().path,
                "the window belongs to \(running)")
        // Autoplay: the play button reads Pause while the clip plays.
        try app.element(named: "Pause", role: "push button")
        // The desktop file is D-Bus activatable: gio asked the bus, and the bus started Reel.
        let commandLine = (try? String(contentsOfFile: "/proc/\(app.pid)/cmdline", encoding: .utf8)) ?? ""
        #expect(commandLine.split(separator: "\0").contains("--gapplication-service"),
                "not started by the bus: \(commandLine.split(separator: "\0"))")
        // The media remote offers the desktop file's types, read from the installed one.
        let types = try desktop.run(["gdbus", "call", "--session", "--dest", "org.mpris.MediaPlayer2.reel",
                                     "--object-path", "/org/mpris/MediaPlayer2", "--method", "org.freedesktop.DBus.Properties.Get",
                                     "org.mpris.MediaPlayer2", "SupportedMimeTypes"]).output
        #expect(types.contains("'video/mp4'") && types.contains("'video/x-matroska'"), "SupportedMimeTypes: \(types)")
        // A file opened over D-Bus, as a file manager does it, goes to the running window.
        let other = clips.appendingPathComponent("Another day.mp4")
        try FileManager.default.copyItem(atPath: try Fixtures.path(.longSmall), toPath: other.path)
        try desktop.run(["gdbus", "call", "--session", "--dest", Self.id, "--object-path", "/io/github/reel/Reel",
                         "--method", "org.freedesktop.Application.Open", "['\(other.absoluteString)']", "{}"])
        try Desktop.wait("the other title", timeout: 20) { app.title == "Another day.mp4 – Reel" }
        #expect(app.isRunning)
        app.stop()
        try Desktop.wait("Reel to quit", timeout: 10) { !app.isRunning }

        try Command.run([Self.path("scripts/uninstall-user.sh"), "--prefix", prefix.path])
        for file in manifest {
            #expect(!FileManager.default.fileExists(atPath: prefix.path + "/" + file), "\(file) left behind")
        }
        #expect(!FileManager.default.fileExists(atPath: share.path + "/reel"))
        #expect(!FileManager.default.fileExists(atPath: share.path + "/glib-2.0/schemas/gschemas.compiled"),
                "the compiled schemas still describe Reel")
        let after = (try? String(contentsOfFile: share.path + "/applications/mimeinfo.cache", encoding: .utf8)) ?? ""
        #expect(!after.contains(Self.id), "mimeinfo.cache: \(after.prefix(500))")
        let handlersAfter = try desktop.run(["gio", "mime", "video/mp4"]).output
        #expect(!handlersAfter.contains(Self.id), "\(handlersAfter)")
        let again = try Command.run([Self.path("scripts/uninstall-user.sh"), "--prefix", prefix.path])
        #expect(again.output.contains("not installed"))
    }

    // MARK: An incomplete installation

    @Test("With a window file missing, Reel says which and where it looked, in a window and on stderr, and quits with status 1 from Quit")
    func missingWindowFile() throws {
        try Self.expectMissingFileNotice(keepSchema: true, removing: "ui/window.ui") { data in data + "/ui/window.ui" }
    }

    @Test("Without its settings schema anywhere, Reel says so in the same way instead of stopping")
    func missingSchema() throws {
        try Self.expectMissingFileNotice(keepSchema: false, removing: nil) { _ in "the settings schema \(Self.id)" }
    }

    /// Starts Reel with REEL_DATA_DIR at an installed-style data folder (ui/ and the stylesheet,
    /// the schema's source if `keepSchema`) less `removing`, and expects the notice naming
    /// `named(folder)`, then Quit, status 1 and no crash.
    static func expectMissingFileNotice(keepSchema: Bool, removing: String?, named: (String) -> String) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-missing-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("share/reel")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path("data/ui"), toPath: data.appendingPathComponent("ui").path)
        var files = ["style.css"]
        if keepSchema { files.append("\(id).gschema.xml") }
        for file in files {
            try FileManager.default.copyItem(atPath: path("data/" + file), toPath: data.appendingPathComponent(file).path)
        }
        if let removing { try FileManager.default.removeItem(at: data.appendingPathComponent(removing)) }
        let missing = named(data.path)

        // A desktop of its own: on a shared one, a Reel already running would take the launch.
        let desktop = try Desktop(width: 800, height: 600)
        defer { desktop.stop() }
        let status = scratch.appendingPathComponent("status").path
        let log = desktop.home.appendingPathComponent("missing.log").path
        // Written aside and renamed: the file must not be seen before it holds the status
        // (the redirection makes it empty first; once under load it was read so).
        try desktop.start(["/bin/sh", "-c", #""$0"; echo $? >"$1.part" && mv "$1.part" "$1""#, ReelApp.binary, status],
                          log: log, extra: ["REEL_DATA_DIR": data.path])
        let app = try ReelApp(on: desktop, adoptingWindowNamed: "Reel")
        try app.waitForElement("'\(missing)'") { $0.role == "label" && $0.name.contains(missing) }
        try app.element(named: "Reel cannot start: some of its files are missing", role: "label")
        // Quit has the focus (not the text, which would then show itself all selected); the
        // accessibility tree places this window's widgets a little off, so it is not clicked.
        try app.waitForElement("Quit, focused") { $0.name == "Quit" && $0.role == "push button" && $0.states.contains("focused") }
        try desktop.xdotool(["windowactivate", "--sync", app.window])
        try desktop.key("Return")
        try Desktop.wait("Reel to quit", log: log, timeout: 10) { FileManager.default.fileExists(atPath: status) }
        // Status 1, not a crash's signal (128 and more).
        #expect(try String(contentsOfFile: status, encoding: .utf8) == "1\n")
        let errors = try String(contentsOfFile: log, encoding: .utf8)
        #expect(errors.contains("reel: Reel cannot start: some of its files are missing") && errors.contains(missing), "\(errors)")
        #expect(!errors.contains("Fatal error"), "\(errors)")
    }

    // MARK: Helpers

    /// The `Key=value` lines of a key file's `group` (by default a desktop entry's main group;
    /// comments and other groups skipped).
    static func keys(of entry: String, group: String = "Desktop Entry") -> [String: String] {
        var keys: [String: String] = [:]
        var inMain = false
        for line in entry.split(separator: "\n") {
            if line.hasPrefix("[") { inMain = line == "[\(group)]"; continue }
            guard inMain, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            keys[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return keys
    }

    /// GTK loads SVG icons through gdk-pixbuf, which picks its loader by sniffing the content
    /// (shared-mime-info wants `<svg` in the first 256 bytes), not by the file name.
    static func expectGdkPixbufLoads(_ svg: String) throws {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("reel-thumb-\(UUID().uuidString).png").path
        defer { unlink(png) }
        let result = try Command.run(["gdk-pixbuf-thumbnailer", "-s", "64", svg, png], check: false)
        #expect(result.status == 0 && FileManager.default.fileExists(atPath: png),
                "gdk-pixbuf cannot load \(svg): \(result.errors)")
    }

    /// Renders an SVG with rsvg-convert (at its own size, or `size` square) and returns the
    /// PNG's width and height from its header.
    static func renderedSize(_ svg: String, at size: Int? = nil) throws -> (Int, Int) {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("reel-icon-\(UUID().uuidString).png").path
        defer { unlink(png) }
        let sizing = size.map { ["-w", String($0), "-h", String($0)] } ?? []
        try Command.run(["rsvg-convert"] + sizing + ["-o", png, svg])
        let data = try Data(contentsOf: URL(fileURLWithPath: png))
        guard data.count > 24, data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Command.Failure(command: ["rsvg-convert", svg], result: .init(status: -1, stdout: Data(), stderr: Data("not a PNG".utf8)))
        }
        let word = { (at: Int) in data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }
}

/// What an SVG is made of: element names, the root's attributes, the fills of its paths.
/// Threading: used by one parse on one thread.
private final class SVGOutline: NSObject, XMLParserDelegate {
    var elements: Set<String> = []
    var rootAttributes: [String: String] = [:]
    var pathFills: Set<String> = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if elements.isEmpty { rootAttributes = attributes }
        elements.insert(name)
        if name == "path" { pathFills.insert(attributes["fill"] ?? "(none)") }
        // Colour given any other way would escape the recolouring of symbolic icons.
        for key in ["style", "stroke", "opacity", "fill-opacity"] where attributes[key] != nil {
            pathFills.insert("\(key)=\(attributes[key]!)")
        }
    }
}
