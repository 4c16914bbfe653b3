import Foundation
import ReelGtk

/// The queue kept across restarts: `$XDG_STATE_HOME/reel/queue.json` (by default
/// `~/.local/state/reel`). A file that is damaged or written by a newer Reel is set aside
/// with a warning and an empty queue starts; it never stops Reel from starting.
/// Threading: main thread (small synchronous writes on changes).
struct QueueStore {
    static let version = 1
    let url: URL

    /// Threading: a value type.
    private struct Saved: Codable {
        var version: Int
        var queue: PlayQueue
    }

    init(directory: URL? = nil) {
        let base = directory ?? StateDirectory.url
        url = base.appendingPathComponent("queue.json")
    }

    func load() -> PlayQueue? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        guard let saved = try? JSONDecoder().decode(Saved.self, from: data), saved.version <= Self.version else {
            warn("the saved queue \(url.path) cannot be read (damaged, or from a newer Reel); starting without it")
            return nil
        }
        return saved.queue
    }

    func save(_ queue: PlayQueue) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let data = try JSONEncoder().encode(Saved(version: Self.version, queue: queue))
            try data.write(to: url, options: .atomic)
        } catch {
            warn("cannot save the queue to \(url.path): \(error.localizedDescription)")
        }
    }

    func clear() { try? FileManager.default.removeItem(at: url) }

    private func warn(_ message: String) {
        FileHandle.standardError.write(Data("reel: \(message)\n".utf8))
    }
}
