import ArgumentParser
import Foundation
import ReelEngine

/// `reel-tool`: the engine from the command line, for scripts, packagers and benchmarks.
/// Every failure ends in one JSON error line on stdout and exit status 2.
/// Threading: commands run on the main thread.
struct ReelTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel-tool",
        abstract: "Inspect, decode, play and measure media with Reel's engine.",
        version: ReelVersion.string,
        subcommands: [InfoCommand.self, FrameCommand.self, PlayCommand.self, SwitchCommand.self, BenchCommand.self,
                      CacheCommand.self])
}

@main
enum Main {
    static func main() {
        // Writing to a closed pipe must be an error, not a silent death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try ReelTool.parseAsRoot()
            try command.run()
            Output.flush()
            exit(0)
        } catch let failure as ToolFailure {
            Output.error(code: failure.code, message: failure.message)
            exit(2)
        } catch let error as PlayerError {
            Output.error(code: error.code, message: error.message)
            exit(2)
        } catch {
            if ReelTool.exitCode(for: error) == .success {
                ReelTool.exit(withError: error)  // --help, --version
            }
            Output.error(code: "usage", message: ReelTool.message(for: error))
            exit(2)
        }
    }
}
