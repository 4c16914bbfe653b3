import ArgumentParser
import ReelCommandLine
import ReelEngine

/// `reel-tool`: the engine from the command line, for scripts and packagers.
/// Every failure ends in one JSON error line on stdout and exit status 2.
/// Threading: commands run on the main thread.
struct ReelTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel-tool",
        abstract: "Inspect, decode and play media with Reel's engine.",
        version: ReelVersion.string,
        subcommands: [InfoCommand.self, FrameCommand.self, PlayCommand.self, SwitchCommand.self, CacheCommand.self])
}

@main
enum Main {
    static func main() {
        CommandLineMain.run(ReelTool.self)
    }
}
