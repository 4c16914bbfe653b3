import Foundation

/// The record's file beside the data: JSON, replaced whole (written to a temporary file,
/// synced, renamed), so a crash leaves the old record or the new one, never half of one.
/// Threading: any thread; one writer per record at a time (the entry's lock holder).
extension CacheRecord {
    static func load(from path: String) -> CacheRecord? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(CacheRecord.self, from: data)
    }

    func save(to path: String) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        let temporary = path + ".tmp-\(getpid())"
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let ok = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) == $0.count }
        fsync(fd)
        Glibc.close(fd)
        if ok { rename(temporary, path) } else { unlink(temporary) }
    }
}
