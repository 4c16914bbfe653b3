import Foundation
import ReelGtk

/// `reel [--start SECONDS] [--paused] [--fullscreen] [FILE|URL]`: opens the file or URL and
/// plays it; with nothing to open, the window invites you to open something.
var options = ReelApplication.LaunchOptions()
var passOn = [CommandLine.arguments[0]]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--start":
        guard let value = arguments.next().flatMap(Double.init) else {
            FileHandle.standardError.write(Data("reel: --start needs a number of seconds\n".utf8))
            exit(2)
        }
        options.start = value
    case _ where argument.hasPrefix("--start="):
        options.start = Double(argument.dropFirst("--start=".count))
    case "--paused":
        options.paused = true
    case "--fullscreen":
        options.fullscreen = true
    case "--version":
        print("reel \(ReelApplication.version)")
        exit(0)
    default:
        passOn.append(argument)
    }
}
let status = MainActor.assumeIsolated {
    ReelApplication(options: options).run(passOn)
}
exit(status)
