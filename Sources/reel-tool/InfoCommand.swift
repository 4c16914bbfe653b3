import ArgumentParser
import ReelCommandLine
import ReelEngine

/// `reel-tool info`: what a file or URL holds, from probing (nothing is decoded, but the first
/// picture of HDR video whose container does not carry its HDR metadata).
/// Threading: runs on the main thread.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Print what a file or URL holds, as one JSON object.")

    @Argument(help: "A file path, file:// URI or http(s):// URL.")
    var source: String

    func run() throws {
        let info = try MediaInspector.inspect(try MediaSource(parsing: source))
        Output.line(MediaInfoJSON.object(info))
    }
}
