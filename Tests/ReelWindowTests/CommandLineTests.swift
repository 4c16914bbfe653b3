import Foundation
import ReelTestSupport
import Testing

/// Reel's command line as GApplication declares it: listed by `--help`, checked before anything
/// starts, and handed by a second launch to the Reel already running, whose window acts on it.
/// Judged from outside: the second process's exit, the window's title and geometry, and the
/// player as the MPRIS remote (playerctl) reports it.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Command line", .serialized)
struct CommandLineTests {
    static let desktops = SharedDesktop.standard

    @Test("--help lists every option with what it takes; --version answers; a negative time is refused before anything opens")
    func help() throws {
        let help = try Command.run([ReelApp.binary, "--help"])
        for text in ["reel [OPTION…] [FILE|URL…]", "--start=SECONDS", "--paused", "--fullscreen", "--version", "--report",
                     "--exit-after=SECONDS", "When Reel is already running, the files and options go to its window"] {
            #expect(help.output.contains(text), "\(text) missing from --help:\n\(help.output)")
        }
        let version = try Command.run([ReelApp.binary, "--version"])
        #expect(version.output.range(of: #"^reel \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(version.output)")
        let refused = try Command.run([ReelApp.binary, "--start", "-4", "film.mp4"], check: false)
        #expect(refused.status == 2)
        #expect(refused.errors == "reel: --start needs a number of seconds, 0 or more (not “-4”)\n", "\(refused.errors)")
        let words = try Command.run([ReelApp.binary, "--exit-after", "soon", "film.mp4"], check: false)
        #expect(words.status == 2)
        #expect(words.errors == "reel: --exit-after needs a number of seconds, 0 or more (not “soon”)\n", "\(words.errors)")
    }

    @Test("A second launch hands its file (a relative path), --start and --paused, then --fullscreen, to the running window and exits")
    func secondLaunch() throws {
        try Self.desktops.use { desktop in
            let app = try ReelApp(on: desktop, arguments: [try Fixtures.path(.solidRed)])
            try app.element(named: "Pause", role: "push button")
            func remote(_ arguments: String...) throws -> String {
                try desktop.run(["playerctl", "-p", "reel"] + arguments).output.trimmingCharacters(in: .whitespacesAndNewlines)
            }

            // From the file's folder, by its bare name: the running Reel resolves it against the
            // folder the second launch ran in. `timeout`: a launch that did not hand over would
            // open a window of its own and never exit.
            let other = URL(fileURLWithPath: try Fixtures.path(.longSmall))
            let second = try desktop.run(["timeout", "30", "sh", "-c", #"cd "$0" && exec "$1" --start 2 --paused "$2""#,
                                          other.deletingLastPathComponent().path, ReelApp.binary, other.lastPathComponent],
                                         check: false)
            #expect(second.status == 0, "the second launch: \(second.status) \(second.errors)")
            try Desktop.wait("the handed file's title", timeout: 20) { app.title == "\(other.lastPathComponent) – Reel" }
            try Desktop.wait("it to be paused 2 s in", timeout: 20) {
                try remote("status") == "Paused" && Double(try remote("position")).map { abs($0 - 2) < 0.05 } == true
            }
            #expect(try remote("metadata", "xesam:url") == other.absoluteString)

            #expect(try desktop.run(["timeout", "30", ReelApp.binary, "--fullscreen"], check: false).status == 0)
            try Desktop.wait("fullscreen", timeout: 10) { try app.geometry().width == desktop.width }
            #expect(app.isRunning)
            app.stop()
        }
    }

    @Test("About (the application's action, as the menu and D-Bus reach it) opens libadwaita's About window with the version")
    func about() throws {
        try Self.desktops.use { desktop in
            let app = try ReelApp(on: desktop)
            try desktop.run(["gdbus", "call", "--session", "--dest", "io.github.reel.Reel", "--object-path",
                             "/io/github/reel/Reel", "--method", "org.gtk.Actions.Activate", "about", "[]", "{}"])
            let version = try Command.run([ReelApp.binary, "--version"]).output
                .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "reel ", with: "")
            try app.waitForElement("the version in the About window") { $0.name == version }
            try app.waitForElement("the developers") { $0.name == "Reel developers" }
            app.stop()
        }
    }
}
