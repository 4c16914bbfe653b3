import Foundation
import ReelCommandLine

/// The programs Reel is measured against, found on PATH.
/// Threading: pure lookups; callable from any thread.
enum Peer: String {
    case ffmpeg
    case mpv

    /// The peer's absolute path, or `peer_missing` when it is not installed: a comparison
    /// without the peer would be no comparison at all.
    func locate() throws(ToolFailure) -> String {
        guard let path = Self.find(rawValue) else {
            throw ToolFailure(
                code: "peer_missing",
                message: "--compare needs \(rawValue) on PATH (Debian: apt-get install \(rawValue), or scripts/install-deps.sh)")
        }
        return path
    }

    /// An executable's absolute path as a shell would find it, or nil.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
