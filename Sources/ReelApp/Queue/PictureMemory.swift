import Foundation
import ReelEngine

/// How each file's picture was shaped — its turns, mirror, crop and aspect — kept in
/// `$XDG_STATE_HOME/reel/pictures.json` under the same keys as the resume history (a file by its
/// content, a URL by itself), so a phone clip turned upright once opens upright. Zoom and pan
/// are not kept: they belong to one viewing, as in mpv. A damaged file, or one from a newer
/// Reel, is set aside with a warning.
/// Threading: main thread (a small file read at start and written at each change).
final class PictureMemory {
    static let version = 1
    static let capacity = 500
    let url: URL
    private var entries: [String: Entry] = [:]
    private let warn: (String) -> Void

    /// Threading: a value type.
    struct Entry: Codable, Equatable {
        var transform: PictureTransform
        /// Where it was last seen (for people reading the file; the key is what matches).
        var source: String
        var saved: Date
    }

    /// Threading: a value type.
    private struct Saved: Codable {
        var version: Int
        var entries: [String: Entry]
    }

    init(directory: URL? = nil, warn: @escaping (String) -> Void = ResumeHistory.standardError) {
        self.warn = warn
        let base = directory ?? StateDirectory.url
        url = base.appendingPathComponent("pictures.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { return }
        guard let saved = try? JSONDecoder().decode(Saved.self, from: data), saved.version <= Self.version else {
            warn("the picture settings in \(url.path) cannot be read (damaged, or from a newer Reel); starting without them")
            return
        }
        entries = saved.entries
    }

    /// The shape kept for `key` (plain when none).
    func transform(forKey key: String) -> PictureTransform { entries[key]?.transform ?? .identity }

    /// Keeps `transform` for `key`, or forgets the key when it is plain; writes the file.
    func record(_ transform: PictureTransform, key: String, source: String) {
        let before = entries[key]?.transform ?? .identity
        guard before != transform else { return }
        if transform.isIdentity {
            entries.removeValue(forKey: key)
        } else {
            entries[key] = Entry(transform: transform, source: source, saved: Date())
        }
        save()
    }

    private func save() {
        if entries.count > Self.capacity {
            let oldest = entries.sorted { $0.value.saved < $1.value.saved }.prefix(entries.count - Self.capacity)
            for (key, _) in oldest { entries.removeValue(forKey: key) }
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try JSONEncoder().encode(Saved(version: Self.version, entries: entries)).write(to: url, options: .atomic)
        } catch {
            warn("cannot save picture settings to \(url.path): \(error.localizedDescription)")
        }
    }
}
