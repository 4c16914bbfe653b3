import Foundation

/// The download thread of one cache entry: fetches what the reader will need (from its position
/// up to the read-ahead, or everything for an offline copy) with Range requests, restarts at
/// once where a seek lands in a gap, and reconnects with growing pauses when the network fails.
/// Threading: its own thread; talks to the reader only through the `CacheEntry`.
final class CacheDownload: @unchecked Sendable {
    // Safe: `entry` is thread-safe; the rest is immutable after init except `thread`, which only
    // the owner's thread touches (start/join).
    private let entry: CacheEntry
    private let options: StreamCacheOptions
    private let readAhead: Int64?
    private let report: @Sendable (CacheReport) -> Void
    private var thread: EngineThread?

    init(entry: CacheEntry, options: StreamCacheOptions, fetchEverything: Bool,
         report: @escaping @Sendable (CacheReport) -> Void) {
        self.entry = entry
        self.options = options
        self.readAhead = fetchEverything ? nil : options.readAhead
        self.report = report
    }

    func start() {
        thread = EngineThread(name: "reel.fetch") { [self] in run() }
    }

    /// Stops the transfer (the entry must be closed first) and waits for the thread.
    func join() { thread?.join(); thread = nil }

    private func run() {
        var failingSince: HostTime?
        var attempt = 0
        var everAnswered = false
        var lastReport = HostTime.now
        // Later requests go straight to where redirects led (saving a round-trip each); a
        // failure there starts from the original URL again.
        var resolved = entry.url
        var reportedFinished = entry.status.complete && entry.isValidated
        if reportedFinished { report(.finished(path: entry.dataPath)) }
        while let start = entry.nextFetch(readAhead: readAhead) {
            var position = start
            var delivered = false
            var lengthKnown = false
            var consistent = true
            var wrongRange = false
            let transfer = HTTPTransfer(
                headers: options.requestHeaders,
                onResponse: { [entry] response in
                    everAnswered = true
                    lengthKnown = response.totalLength != nil
                    // A server that ignores Range starts at 0: skip to where we asked.
                    position = response.start
                    if response.start > start { wrongRange = true; return false }
                    consistent = entry.accept(response)
                    return consistent
                },
                onData: { [entry, readAhead] bytes in
                    var offset = 0
                    if position < start {
                        let skip = Int(min(Int64(bytes.count), start - position))
                        offset = skip
                        position += Int64(skip)
                        if offset == bytes.count { return true }
                    }
                    switch entry.admit(count: bytes.count - offset, at: position, readAhead: readAhead) {
                    case .stop: return false
                    case .write(let n):
                        guard entry.store(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n]), at: position) else {
                            return false
                        }
                        position += Int64(n)
                        delivered = true
                        if HostTime.now.seconds(since: lastReport) > 0.25 {
                            lastReport = .now
                            let s = entry.status
                            self.report(.progress(bytes: s.bytes, expected: s.length, ranges: s.ranges))
                        }
                        return n == bytes.count - offset
                    }
                },
                shouldStop: { [entry] in entry.shouldAbandon(at: position) })
            var outcome = transfer.run(url: resolved, from: start)
            // A reply for other bytes than asked: retried with pauses like a failure, never in a tight loop.
            if wrongRange { outcome = .failed(.transient("the server answered another byte range than asked")) }
            if case .failed = outcome { resolved = entry.url } else if let final = transfer.finalURL { resolved = final }
            if delivered { failingSince = nil; attempt = 0 }
            switch outcome {
            case .finished:
                entry.transferFinished(at: position, lengthKnown: lengthKnown)
                failingSince = nil
                attempt = 0
            case .stopped:
                entry.transferStopped()
                if !consistent {
                    let error = PlayerError.networkError("\(entry.url) changed on the server while playing; open it again")
                    entry.fail(error)
                    report(.failed(error))
                }
            case .failed(var failure):
                entry.transferStopped()
                if case .unreachable(let text) = failure {
                    // Nothing cached and no answer ever: the server is not there (as a plain
                    // stream would say at once). Otherwise ride it out like any other drop.
                    failure = !everAnswered && entry.status.bytes == 0 ? .permanent(text) : .transient(text)
                }
                switch failure {
                case .permanent(let text):
                    let error = PlayerError.networkError(text)
                    entry.fail(error)
                    report(.failed(error))
                case .transient(let text), .unreachable(let text):
                    // No network: cached bytes are all there is, and they are used as they are.
                    entry.trustCachedBytes()
                    let since = failingSince ?? .now
                    failingSince = since
                    if HostTime.now.seconds(since: since) >= options.retryWindow {
                        let error = PlayerError.networkError("\(text) (gave up after \(Int(options.retryWindow)) s): \(entry.url)")
                        entry.fail(error)
                        report(.failed(error))
                    } else {
                        attempt += 1
                        report(.reconnecting(attempt: attempt, reason: text))
                        entry.pause(seconds: min(0.2 * pow(2, Double(attempt - 1)), 3))
                    }
                }
            }
            entry.persist()
            let s = entry.status
            if s.complete && !reportedFinished {
                reportedFinished = true
                report(.progress(bytes: s.bytes, expected: s.length, ranges: s.ranges))
                report(.finished(path: entry.dataPath))
            }
        }
        entry.persist()
    }
}
