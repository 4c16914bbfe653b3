import CFFmpeg
import Foundation

/// One resource in the cache: a sparse data file (bytes at their own offsets), its record, and
/// the live state the reader and the download thread share. The record on disk only ever lists
/// ranges whose bytes were synced before it was written, so after a crash it may know less than
/// the data file holds (those bytes are fetched again) but never more.
/// An exclusive `flock` on the data file marks the entry as in use, by this process or another.
/// Threading: every mutable member is guarded by `condition`; the reader (demux thread) and the
/// download thread both call in; `persist` and `reset` only from the download thread.
final class CacheEntry: @unchecked Sendable {
    // Safe: the lets are immutable, `fd` is only used with pread/pwrite/fdatasync (safe from
    // any thread), and every var below is read and written only while `condition` is held.
    let url: String
    let dataPath: String
    let recordPath: String
    private let fd: Int32
    private let condition = NSCondition()

    // Guarded by `condition`.
    private var record: CacheRecord
    private var present: ByteRanges
    private var unsynced: Int64 = 0
    private var lastPersist = HostTime.now
    private var failure: PlayerError?
    private var closed = false
    /// Cached bytes may be read only once a response (or the lack of a network) vouched for them.
    private var validated: Bool
    /// Where the reader is; read-ahead counts from here.
    private var readerPosition: Int64 = 0
    /// A position the reader waits for that no transfer is bringing.
    private var demand: Int64?
    /// Where the running transfer writes next.
    private var cursor: Int64?
    /// When the running transfer last delivered (or started).
    private var lastArrival = HostTime.now
    /// The reader has consumed bytes: a change of the resource now is an error, not a reset.
    private var consumed = false

    /// Opens (or creates) the entry for `url` in `directory`; nil when another player still
    /// holds it after `lockWait` seconds (a player closing the same URL lets go within that).
    static func open(url: String, directory: String, needsValidation: Bool, lockWait: Double = 2,
                     interrupt: InterruptFlag? = nil) -> CacheEntry? {
        let key = CacheKey.of(url)
        let dataPath = directory + "/" + key + ".data"
        let fd = Glibc.open(dataPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        let deadline = HostTime.now.adding(seconds: lockWait)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard HostTime.now.seconds(since: deadline) < 0, interrupt?.isAborted != true else {
                Glibc.close(fd)
                return nil
            }
            // Another process may hold it: no event tells when it lets go, so a look every
            // 20 ms, bounded by `lockWait`.
            usleep(20_000)
        }
        return CacheEntry(url: url, fd: fd, dataPath: dataPath, recordPath: directory + "/" + key + ".json",
                          needsValidation: needsValidation)
    }

    private init(url: String, fd: Int32, dataPath: String, recordPath: String, needsValidation: Bool) {
        self.url = url
        self.fd = fd
        self.dataPath = dataPath
        self.recordPath = recordPath
        var loaded = CacheRecord.load(from: recordPath).flatMap { $0.url == url ? $0 : nil } ?? CacheRecord(url: url)
        // Ranges past the end of the data file cannot be real (the file was cut short): drop them.
        var st = stat()
        if fstat(fd, &st) == 0 {
            let size = Int64(st.st_size)
            loaded.ranges = ByteRanges(loaded.ranges.ranges.compactMap { r in
                r.lowerBound >= size ? nil : r.lowerBound..<min(r.upperBound, size)
            })
        }
        if loaded.ranges.isEmpty { ftruncate(fd, 0) }
        loaded.lastUsed = Date().timeIntervalSince1970
        record = loaded
        present = loaded.ranges
        validated = !needsValidation || loaded.ranges.isEmpty
        loaded.save(to: recordPath)
    }

    deinit { Glibc.close(fd) }

    // MARK: - Reader side

    /// Reads up to `count` bytes at `offset`, waiting for them to arrive. Returns the byte count,
    /// EOF, or a negative FFmpeg error (the failure, or an interrupt).
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64, interrupt: InterruptFlag) -> Int32 {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if closed { return FFmpegError.exit }
            let available = validated ? present.contiguous(from: offset) : 0
            if available > 0 {
                readerPosition = offset
                consumed = true
                demand = nil
                let n = pread(fd, buffer, Int(min(Int64(count), available)), off_t(offset))
                if n <= 0 { return FFmpegError.io }
                readerPosition = offset + Int64(n)
                condition.broadcast()
                return Int32(n)
            }
            if validated, let length = record.length, offset >= length { return FFmpegError.eof }
            if failure != nil { return FFmpegError.io }
            if interrupt.shouldInterrupt { return FFmpegError.exit }
            if demand != offset || readerPosition != offset {
                demand = offset
                readerPosition = offset
                condition.broadcast()
            }
            // Bytes arriving wake this at once; the interrupt (an abort, or the network deadline
            // running out) has no way to, so it is looked at every 50 ms while bytes are awaited.
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
    }

    /// The resource's length, waiting (interruptibly) until a response has told it.
    func length(interrupt: InterruptFlag) -> Int64? {
        condition.lock()
        defer { condition.unlock() }
        while !closed && failure == nil && !interrupt.shouldInterrupt && !validated {
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))   // the interrupt, as in `read`
        }
        return validated ? record.length : nil
    }

    /// Waits until more bytes arrive, or the entry fails or closes, or `interrupt` fires
    /// (looked at every 50 ms, as `read` does): what a demuxer told to try again waits for.
    /// Returns at once when the whole resource is here (nothing more will arrive).
    func waitForArrival(interrupt: InterruptFlag) {
        condition.lock()
        defer { condition.unlock() }
        let before = present.count
        while !closed && failure == nil && !interrupt.shouldInterrupt && present.count == before
                && !(record.length.map { present.covers(length: $0) } ?? false) {
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
    }

    var currentFailure: PlayerError? { condition.withLock { failure } }

    /// The media type the server gave for the resource (once a response came), if any.
    var contentType: String? { condition.withLock { record.contentType } }

    /// Wakes everyone and makes reads fail from now on.
    func close() {
        condition.withLock { closed = true; condition.broadcast() }
    }

    // MARK: - Download side

    struct Status {
        var bytes: Int64
        var length: Int64?
        var ranges: ByteRanges
        var complete: Bool
    }

    var status: Status {
        condition.withLock {
            Status(bytes: present.count, length: record.length, ranges: present,
                   complete: record.length.map { present.covers(length: $0) } ?? false)
        }
    }

    var isValidated: Bool { condition.withLock { validated } }

    /// Waits until the resource is whole and vouched for, has failed or was closed, or
    /// `seconds` passed: an offline download waits here rather than sleeping between looks.
    func waitForCompletion(seconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        let until = Date(timeIntervalSinceNow: seconds)
        while !closed && failure == nil && Date() < until
                && !(validated && (record.length.map { present.covers(length: $0) } ?? false)) {
            _ = condition.wait(until: until)
        }
    }

    /// Blocks until there is something to fetch and returns where to start, or nil once closed.
    /// `readAhead` bounds how far past the reader fetching goes (nil: fetch the whole resource).
    func nextFetch(readAhead: Int64?) -> Int64? {
        condition.lock()
        defer { condition.unlock() }
        while !closed {
            if failure == nil, let start = FetchPolicy.nextFetch(
                present: present, from: demand ?? readerPosition, length: record.length,
                validated: validated, readAhead: readAhead) {
                demand = nil
                lastArrival = .now
                return start
            }
            // Everything the policy looks at (bytes present, the reader's position and demand,
            // the length, validation, failure, closing) changes under the lock with a broadcast.
            condition.wait()
        }
        return nil
    }

    /// Decides how many of `count` bytes arriving at `offset` to keep: up to the next range
    /// already present, while the reader wants them; `stop` ends the transfer (a seek elsewhere,
    /// enough read ahead, or the player closed).
    func admit(count: Int, at offset: Int64, readAhead: Int64?) -> FetchPolicy.Admission {
        condition.lock()
        defer { condition.unlock() }
        cursor = offset
        if closed { return .stop }
        return FetchPolicy.admit(count: count, at: offset, present: present, demand: demand,
                                 readerPosition: readerPosition, readAhead: readAhead)
    }

    /// How often the record is brought up to date while bytes arrive: each time costs a sync of
    /// the data (tens of ms on a slow disk, which stalls the transfer meanwhile), and what
    /// arrived since the last one is fetched again after a crash.
    static let persistBytes: Int64 = 16 << 20
    static let persistSeconds = 2.0

    /// Stores bytes that arrived at `offset`.
    func store(_ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + Int64(done)))
            if n <= 0 { return false }
            done += n
        }
        let due: Bool = condition.withLock {
            present.insert(offset..<offset + Int64(bytes.count))
            cursor = offset + Int64(bytes.count)
            lastArrival = .now
            if let d = demand, d >= offset && d < offset + Int64(bytes.count) { demand = nil }
            unsynced += Int64(bytes.count)
            condition.broadcast()
            return unsynced >= Self.persistBytes || HostTime.now.seconds(since: lastPersist) > Self.persistSeconds
        }
        if due { persist() }
        return true
    }

    /// Takes in a response's validators. Returns false when the resource changed after the
    /// reader had used its old bytes (the caller fails the download); a change before that, or a
    /// first response, resets the entry to the new resource.
    func accept(_ response: HTTPTransfer.Response) -> Bool {
        let length = response.totalLength
        enum Verdict { case same, reset, stale }
        let verdict: Verdict = condition.withLock {
            // Bytes kept from an earlier session of a resource that names no validator at all
            // (no ETag, date or length) cannot be vouched for: they are fetched again.
            let unverifiable = !validated && !present.isEmpty && !record.hasValidators
                && response.etag == nil && response.lastModified == nil && length == nil
            let changed = unverifiable
                || record.differs(etag: response.etag, lastModified: response.lastModified, length: length)
            if changed && consumed { return .stale }
            if changed {
                record = CacheRecord(url: url)
                present = ByteRanges()
            }
            if response.etag != nil { record.etag = response.etag }
            if response.lastModified != nil { record.lastModified = response.lastModified }
            if response.contentType != nil { record.contentType = response.contentType }
            if let length { record.length = length }
            validated = true
            condition.broadcast()
            return changed ? .reset : .same
        }
        if verdict == .reset {
            // The new (empty) record is written before the old bytes are cut away.
            persist()
            ftruncate(fd, 0)
        }
        return verdict != .stale
    }

    /// The transfer ended at `offset` without the server naming a length: that is the length.
    func transferFinished(at offset: Int64, lengthKnown: Bool) {
        condition.withLock {
            cursor = nil
            if !lengthKnown && record.length == nil { record.length = offset }
            condition.broadcast()
        }
    }

    func transferStopped() { condition.withLock { cursor = nil } }

    /// No network: what is cached may be used as it is.
    func trustCachedBytes() {
        condition.withLock {
            if !validated && !present.isEmpty { validated = true; condition.broadcast() }
        }
    }

    func fail(_ error: PlayerError) {
        condition.withLock { failure = error; condition.broadcast() }
    }

    /// Waits up to `seconds` (less if closed or the reader wants something new).
    func pause(seconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        let until = Date(timeIntervalSinceNow: seconds)
        let demandBefore = demand
        while !closed && Date() < until && demand == demandBefore { _ = condition.wait(until: until) }
    }

    var isClosed: Bool { condition.withLock { closed } }

    /// Whether a transfer writing at `offset` should give way: closed, or the reader waits
    /// somewhere it will not reach soon (checked while no bytes arrive, as in a stall).
    func shouldAbandon(at offset: Int64) -> Bool {
        condition.withLock {
            closed || FetchPolicy.shouldAbandon(at: offset, demand: demand,
                                                quietFor: HostTime.now.seconds(since: lastArrival))
        }
    }

    /// Syncs the data, then records what is on disk (write to a temporary file, sync, rename).
    func persist() {
        let snapshot = condition.withLock { present }
        fdatasync(fd)
        let saved: CacheRecord = condition.withLock {
            record.ranges = snapshot
            unsynced = 0
            lastPersist = .now
            return record
        }
        saved.save(to: recordPath)
    }
}
