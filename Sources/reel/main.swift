import Foundation
import ReelApp

// `reel [--start SECONDS] [--paused] [--fullscreen] [FILE|URL…]`, and `--help` for the rest: the
// options are GApplication's (see CommandLineOptions), so that a second launch hands them to the
// Reel already running.
let status = MainActor.assumeIsolated {
    ReelApplication().run(CommandLine.arguments)
}
exit(status)
