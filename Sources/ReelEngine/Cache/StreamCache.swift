import Foundation

/// The cache directory: entries (a `.data` file and its `.json` record each), listing, clearing
/// and least-recently-used eviction down to the size limit. An entry whose data file is locked
/// is in use (playing or downloading, here or in another process) and is never evicted.
/// Threading: stateless apart from the options; safe from any thread (the file system is the state).
public struct StreamCache: Sendable {
    public let options: StreamCacheOptions

    public init(options: StreamCacheOptions = StreamCacheOptions()) {
        self.options = options
    }

    public var directory: String { options.resolvedDirectory }

    /// One cached resource as `list` shows it.
    public struct Item: Sendable {
        public let url: String
        public let path: String
        /// Bytes present (and recorded).
        public let cachedBytes: Int64
        public let length: Int64?
        public let complete: Bool
        public let lastUsed: Date
        /// Bytes the data file takes on disk (sparse files take only what is present).
        public let diskBytes: Int64
    }

    /// Creates the directory (and `reel` above it) private to the user: what was watched is
    /// nobody else's business. A `reel` folder made earlier with looser permissions is tightened.
    func prepare() throws(PlayerError) {
        let parent = (directory as NSString).deletingLastPathComponent
        for dir in [parent, directory] {
            if mkdir(dir, 0o700) != 0 && errno != EEXIST {
                if errno == ENOENT, (try? FileManager.default.createDirectory(
                    atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil { continue }
                throw .permissionDenied("cannot create the cache folder \(dir): \(String(cString: strerror(errno)))")
            }
            var st = stat()
            let ours = dir == directory || (dir as NSString).lastPathComponent == "reel"
            if ours && stat(dir, &st) == 0 && st.st_uid == getuid() && st.st_mode & 0o077 != 0 { chmod(dir, 0o700) }
        }
    }

    public func list() -> [Item] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".json") }.compactMap { name in
            let recordPath = directory + "/" + name
            guard let record = CacheRecord.load(from: recordPath) else { return nil }
            let dataPath = String(recordPath.dropLast(5)) + ".data"
            var st = stat()
            let disk = stat(dataPath, &st) == 0 ? Int64(st.st_blocks) * 512 : 0
            return Item(url: record.url, path: dataPath, cachedBytes: record.ranges.count, length: record.length,
                        complete: record.isComplete, lastUsed: Date(timeIntervalSince1970: record.lastUsed),
                        diskBytes: disk)
        }.sorted { $0.lastUsed > $1.lastUsed }
    }

    /// Removes every entry not in use; returns how many were removed.
    @discardableResult
    public func clear() -> Int {
        list().reduce(0) { $0 + (remove($1.path) ? 1 : 0) }
    }

    /// Removes least recently used entries until the cache fits `options.sizeLimit`, never
    /// one in use. Returns the URLs removed.
    @discardableResult
    public func evict() -> [String] {
        var items = list()
        var total = items.reduce(0) { $0 + $1.diskBytes }
        var removed: [String] = []
        while total > options.sizeLimit, let oldest = items.popLast() {
            if remove(oldest.path) {
                total -= oldest.diskBytes
                removed.append(oldest.url)
            }
        }
        return removed
    }

    /// Removes the entry of `url` unless in use.
    @discardableResult
    public func remove(url: String) -> Bool {
        remove(directory + "/" + CacheKey.of(url) + ".data")
    }

    /// Removes one entry if nobody holds its lock (taken here for the removal).
    private func remove(_ dataPath: String) -> Bool {
        let fd = open(dataPath, O_RDWR | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
            // Record first: a record without data is harmless, data without a record is an orphan.
            unlink(String(dataPath.dropLast(5)) + ".json")
            unlink(dataPath)
            return true
        }
        unlink(String(dataPath.dropLast(5)) + ".json")
        return true
    }
}
