import ArgumentParser
import Foundation
import ReelEngine

/// How Reel's command-line programs start and end: every failure, theirs or the engine's, ends
/// in one JSON error line on stdout and exit status 2, so scripts read one shape whatever went wrong.
/// Threading: runs the command on the calling (main) thread.
public enum CommandLineMain {
    public static func run<Root: ParsableCommand>(_ root: Root.Type) -> Never {
        // Writing to a closed pipe must be an error, not a silent death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try root.parseAsRoot()
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
            if root.exitCode(for: error) == .success {
                root.exit(withError: error)  // --help, --version
            }
            Output.error(code: "usage", message: root.message(for: error))
            exit(2)
        }
    }
}
