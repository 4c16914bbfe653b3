import Foundation
import ReelCommandLine
import ReelEngine

/// What every benchmark starts from: the media file (checked and probed once, so a bad file
/// fails before anything is timed), whether peers are measured too, and where the programs it runs are.
/// Threading: a value type, built and used on the main thread.
struct BenchSetup {
    /// Absolute path, handed unchanged to Reel and to the peers.
    let path: String
    let source: MediaSource
    let info: MediaInfo
    let compare: Bool
    /// Options added to every mpv run of `bench window`, for a like-for-like comparison where mpv's
    /// defaults differ from Reel's (mpv 0.35 does not deinterlace unless told to).
    var mpvOptions: [String] = []

    init(file: String, compare: Bool) throws {
        let source = try MediaSource(parsing: file)
        guard case .file(let path) = source.location else {
            throw ToolFailure(code: "usage", message: "bench measures local files only (network speed would dominate): \(file)")
        }
        guard FileManager.default.fileExists(atPath: path) else { throw PlayerError.fileNotFound(path) }
        let info = try MediaInspector.inspect(source)
        guard info.selectedVideoStream != nil else { throw PlayerError.noPlayableStream("\(path) has no video stream to measure") }
        self.path = path
        self.source = source
        self.info = info
        self.compare = compare
    }

    var duration: Double? { info.duration }

    /// A program from the same build as this one (`swift build` puts every product in one
    /// directory), so child runs measure exactly this build: `reel-tool` for the benches that
    /// time its `play`, `reel` for `window`.
    static func sibling(_ name: String, for bench: String) throws(ToolFailure) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw ToolFailure(code: "internal_error", message: "cannot read /proc/self/exe") }
        let own = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let path = (own as NSString).deletingLastPathComponent + "/" + name
        guard access(path, X_OK) == 0 else {
            throw ToolFailure(code: name == "reel" ? "app_missing" : "missing_tool",
                              message: "bench \(bench) runs \(name) from this build, but \(path) is missing: "
                                  + "build it too (swift build -c release)")
        }
        return path
    }

    /// A player for the benches (seek, step, scrub, click; their playing parts too): sound
    /// decoded into the null output, the file opened and loaded, its events recorded into `log`.
    func loadedPlayer(recording log: PlayerEventRecorder) throws -> Player {
        var configuration = PlayerConfiguration()
        configuration.audioOutput = .null
        let player = Player(configuration: configuration, events: log.sink)
        player.open(source)
        guard try log.waitUntilLoaded(timeout: 60) else {
            throw ToolFailure(code: "timeout", message: "Reel did not load \(path) within 60 s")
        }
        return player
    }
}
