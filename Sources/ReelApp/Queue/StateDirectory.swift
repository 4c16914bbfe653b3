import Foundation

/// Where Reel keeps what it remembers between runs (the queue, where files were left, how their
/// pictures were shaped): `$XDG_STATE_HOME/reel`, by default `~/.local/state/reel`.
/// Threading: stateless.
enum StateDirectory {
    static var url: URL {
        let state = ProcessInfo.processInfo.environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory() + "/.local/state"
        return URL(fileURLWithPath: state).appendingPathComponent("reel")
    }
}
