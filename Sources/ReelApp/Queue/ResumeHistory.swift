import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// Where each file or URL was left, kept in `$XDG_STATE_HOME/reel/positions.json`. Files are
/// recognised by their content (size and a checksum of their first and last megabyte), so a
/// moved or renamed file still resumes; URLs by the URL. A position is kept only some way in
/// and not near the end: a few seconds in is not worth resuming, and a finished film starts
/// over. A damaged file, or one from a newer Reel, is set aside with a warning.
/// Threading: main thread (small file reads and writes at opens, pauses and switches).
final class ResumeHistory {
    static let version = 1
    /// At most this many entries; the oldest go first.
    static let capacity = 500
    let url: URL
    private var entries: [String: Entry] = [:]
    private var dirty = false
    /// Where problems with the file are told (standard error; tests read them).
    private let warn: (String) -> Void

    /// One remembered position. Threading: a value type.
    struct Entry: Codable, Equatable {
        var position: Double
        var duration: Double
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
        url = base.appendingPathComponent("positions.json")
        load()
    }

    private func load() {
        guard let data = FileManager.default.contents(atPath: url.path) else { return }
        guard let saved = try? JSONDecoder().decode(Saved.self, from: data), saved.version <= Self.version else {
            warn("the playback positions in \(url.path) cannot be read (damaged, or from a newer Reel); starting without them")
            return
        }
        entries = saved.entries
    }

    static func standardError(_ message: String) {
        FileHandle.standardError.write(Data("reel: \(message)\n".utf8))
    }

    // MARK: Rules

    /// Whether a position is worth remembering: media of a minute or more, past the first
    /// twentieth (at most two minutes), and not in its last twentieth (at least ten seconds).
    static func worthKeeping(position: Double, duration: Double) -> Bool {
        guard duration >= 60, position.isFinite else { return false }
        return position >= min(120, duration * 0.05) && position <= duration - max(10, duration * 0.05)
    }

    // MARK: Reading and writing

    /// The position to resume at, if one is remembered under `key` (see `key(for:)`).
    func position(forKey key: String) -> Double? {
        guard let entry = entries[key], Self.worthKeeping(position: entry.position, duration: entry.duration) else { return nil }
        return entry.position
    }

    /// Notes where the media under `key` is now; forgets it when the position is not worth
    /// keeping (near the end, or barely started).
    func record(key: String, source: String, position: Double, duration: Double?) {
        guard let duration else { return }
        if Self.worthKeeping(position: position, duration: duration) {
            entries[key] = Entry(position: position, duration: duration, source: source, saved: Date())
            dirty = true
        } else if entries.removeValue(forKey: key) != nil {
            dirty = true
        }
    }

    func forget(key: String) {
        guard entries.removeValue(forKey: key) != nil else { return }
        dirty = true
        save()
    }

    /// Writes the file if anything changed since the last write.
    func save() {
        guard dirty else { return }
        dirty = false
        if entries.count > Self.capacity {
            let oldest = entries.sorted { $0.value.saved < $1.value.saved }.prefix(entries.count - Self.capacity)
            for (key, _) in oldest { entries.removeValue(forKey: key) }
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try JSONEncoder().encode(Saved(version: Self.version, entries: entries)).write(to: url, options: .atomic)
        } catch {
            warn("cannot save playback positions to \(url.path): \(error.localizedDescription)")
        }
    }

    // MARK: Keys

    /// Content key for local files, the URL itself for remote media.
    static func key(for source: MediaSource) -> String? {
        switch source.location {
        case .remote(let url): "url:" + url
        case .file(let path): fingerprint(of: path).map { "file:" + $0 }
        }
    }

    /// SHA-256 over the size and the first and last megabyte: cheap on a film of many
    /// gigabytes, and the same wherever the file is moved.
    static func fingerprint(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return nil }
        let chunk: UInt64 = 1 << 20
        var data = Data("\(size):".utf8)
        try? handle.seek(toOffset: 0)
        data.append((try? handle.read(upToCount: Int(chunk))) ?? Data())
        if size > chunk {
            try? handle.seek(toOffset: max(chunk, size - chunk))
            data.append((try? handle.readToEnd()) ?? Data())
        }
        return data.withUnsafeBytes { bytes in
            GString.take(g_compute_checksum_for_data(G_CHECKSUM_SHA256, bytes.baseAddress?.assumingMemoryBound(to: guchar.self),
                                                     gsize(bytes.count)))
        }
    }
}
