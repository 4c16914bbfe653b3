import Foundation
import ReelApp

/// `reel [--start SECONDS] [--paused] [--fullscreen] [--exit-after SECONDS] [--report] [FILE|URL]`:
/// opens the file or URL and plays it; with nothing to open, the window invites you to open
/// something. For measurement and scripts: `--exit-after SECONDS` quits that long after the
/// first picture is drawn; `--report` prints JSON lines on stdout, `{"event":"first_frame_drawn"}`
/// and at quit `{"event":"summary","frames_drawn":N,"frames_dropped":N,…}`. Either one also
/// keeps this process from handing its file to an already running Reel.
/// A number of seconds (zero or more) for `option`, or a usage error.
func seconds(_ text: String?, for option: String) -> Double {
    guard let value = text.flatMap(Double.init), value >= 0, value.isFinite else {
        FileHandle.standardError.write(Data("reel: \(option) needs a number of seconds\n".utf8))
        exit(2)
    }
    return value
}

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
    case "--exit-after":
        options.exitAfter = seconds(arguments.next(), for: "--exit-after")
    case _ where argument.hasPrefix("--exit-after="):
        options.exitAfter = seconds(String(argument.dropFirst("--exit-after=".count)), for: "--exit-after")
    case "--report":
        options.report = true
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
