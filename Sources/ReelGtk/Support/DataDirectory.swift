import Foundation

/// Where Reel's data files (`ui/*.ui`, `style.css`, the GSettings schema) are: installed next to
/// the binary's prefix (`$prefix/share/reel`), or in the source tree for `swift run`, or where
/// `REEL_DATA_DIR` says. `Bundle.module` is not used: it does not survive installation.
/// Threading: immutable once computed; any thread.
public enum DataDirectory {
    public static let path: String = {
        let fm = FileManager.default
        if let override = ProcessInfo.processInfo.environment["REEL_DATA_DIR"], fm.fileExists(atPath: override + "/ui") {
            return override
        }
        // The running binary itself: argv[0] is only "reel" when it was found on PATH (a
        // desktop file's `Exec=reel`), which says nothing about where it is installed.
        let executable = (try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map(URL.init(fileURLWithPath:))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/reel").path
        if fm.fileExists(atPath: installed + "/ui") { return installed }
        // Sources/ReelGtk/Support/DataDirectory.swift → the repository's data/.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data").path
        return source
    }()

    public static func file(_ relative: String) -> String { path + "/" + relative }

    /// The files Reel cannot show its window without (every GtkBuilder file, the stylesheet)
    /// that are not there or not readable: an incomplete installation, or a `REEL_DATA_DIR`
    /// that points at the wrong folder.
    public static func missingFiles() -> [String] {
        (UIFile.allCases.map(\.path) + [file("style.css")]).filter { !FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The folder of icon themes beside the data: the source tree's `icons/` run from there,
    /// an installation's `share/icons` (where the desktop may not look, for a prefix outside
    /// its data folders). Nil when it holds no hicolor icons.
    public static var iconFolder: String? {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("icons").path
        return FileManager.default.fileExists(atPath: folder + "/hicolor") ? folder : nil
    }

    /// The demo clip, when Reel runs from its source tree.
    public static var demoClip: String? {
        let clip = file("demo/reel-demo.mp4")
        return FileManager.default.fileExists(atPath: clip) ? clip : nil
    }
}
