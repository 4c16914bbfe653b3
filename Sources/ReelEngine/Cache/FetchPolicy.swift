/// Where the download goes next and when a running transfer gives way, decided from what is
/// on disk, where the reader is and what it waits for. Reading ahead is refilled once half of
/// it is used, so requests are few and long; a seek far from a transfer stops it, a seek just
/// ahead of it lets it run (it gets there sooner than a new request would).
/// Threading: pure functions; the cache entry calls them with its lock held.
enum FetchPolicy {
    /// A seek this close ahead of a running transfer is reached sooner by letting it run than
    /// by a new request (about one round-trip of data at common speeds).
    static let nearEnough: Int64 = 256 << 10
    /// Seconds a transfer may deliver nothing while the reader waits before it is replaced.
    static let quietLimit = 2.0

    /// Where to fetch from next, or nil to wait. `from`: what the reader waits for, else where
    /// it is. `readAhead`: how far past the reader to fetch (nil: the whole resource).
    /// Bytes not yet vouched for by a response are fetched from where they are missing.
    static func nextFetch(present: ByteRanges, from: Int64, length: Int64?, validated: Bool,
                          readAhead: Int64?) -> Int64? {
        let missing = present.firstMissing(from: from)
        let pastEnd = length.map { missing >= $0 } ?? false
        if !validated { return missing }
        if !pastEnd, readAhead.map({ missing < from + max($0 / 2, 1) }) ?? true { return missing }
        // A fetch-everything download past the reader's end fills the earlier gaps.
        if readAhead == nil, let length {
            let first = present.firstMissing(from: 0)
            if first < length { return first }
        }
        return nil
    }

    /// What the transfer at `offset` should do with the next bytes.
    enum Admission: Equatable { case write(Int), stop }

    /// How many of `count` bytes arriving at `offset` to keep: up to the next range already
    /// present, while the reader wants them. `stop` ends the transfer: the reader waits
    /// elsewhere (`demand`), enough is read ahead of `readerPosition`, or the bytes are there.
    static func admit(count: Int, at offset: Int64, present: ByteRanges, demand: Int64?,
                      readerPosition: Int64, readAhead: Int64?) -> Admission {
        if let demand, !reaches(demand, from: offset) { return .stop }
        if let readAhead, offset >= readerPosition + readAhead { return .stop }
        if present.contiguous(from: offset) > 0 { return .stop }
        let end = present.nextPresent(after: offset).map { min($0, offset + Int64(count)) } ?? offset + Int64(count)
        return .write(Int(end - offset))
    }

    /// Whether a transfer writing at `offset`, quiet for `quietFor` seconds, should give way
    /// to one where the reader waits (`demand`).
    static func shouldAbandon(at offset: Int64, demand: Int64?, quietFor: Double) -> Bool {
        guard let demand else { return false }
        if !reaches(demand, from: offset) { return true }
        // The reader waits past this connection's position and the connection has gone
        // quiet: a new request where the reader waits skips the gap. (Waiting exactly at the
        // position is left to the transfer's own low-speed timeout: a new connection would ask
        // for the same bytes.)
        return demand > offset && quietFor > quietLimit
    }

    /// Whether a transfer at `offset` will soon bring the byte at `demand`.
    private static func reaches(_ demand: Int64, from offset: Int64) -> Bool {
        offset <= demand && demand - offset < nearEnough
    }
}
