import Foundation

/// Where Reel's compiled translations (`<lang>/LC_MESSAGES/reel.mo`) are: `REEL_LOCALE_DIR` when
/// set (the tests compile `po/` into a folder of their own), else the installed
/// `$prefix/share/locale`, found from the running binary as `DataDirectory` finds
/// `$prefix/share/reel`. From the source tree there are none and Reel speaks English.
/// Threading: immutable once computed; any thread.
public enum LocaleDirectory {
    public static let path: String = {
        if let override = ProcessInfo.processInfo.environment["REEL_LOCALE_DIR"], !override.isEmpty {
            return override
        }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .map(URL.init(fileURLWithPath:))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/locale").path
    }()
}
