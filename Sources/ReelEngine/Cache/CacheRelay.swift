import Foundation

/// Serves cache entries over http on 127.0.0.1 to a demuxer that opens its resources itself
/// rather than through the format context's `io_open` hook: FFmpeg's DASH demuxer opens every
/// segment with its own http client, past `CacheSession`. Given the relay's address of the
/// manifest (`RelayAddress`), it asks the relay for segments and init sections, which come
/// from the cache and its downloads as HLS segments do, and so replay without the network.
/// A resource the relay cannot hold (another player holds it, or it is the manifest the
/// demuxer is already reading) is answered with a redirect to its real URL.
/// Threading: an accept thread and one thread per connection, joined by `stop` (from the owner);
/// `failure` and `lastReadFailed` from any thread.
final class CacheRelay: @unchecked Sendable {
    // Safe: the lets are immutable or thread-safe; `acceptThread` is touched only by the owner
    // (init, stop); everything shared with the threads is in `Locked` values.
    let address: RelayAddress
    private let cache: StreamCache
    private let manifest: String
    private let listener: Int32
    private let interrupt = InterruptFlag()
    private var acceptThread: EngineThread?
    private let connections = Locked(Connections())
    private let state = Locked(Outcome())

    /// The connection threads by number with their sockets, and the numbers of those done: a
    /// thread never closes its own socket, so the owner can cut a running one without hitting
    /// a number the system gave out again. Threading: in a `Locked`.
    private struct Connections {
        var next = 0
        var running: [Int: (thread: EngineThread, fd: Int32)] = [:]
        var done: Set<Int> = []
    }

    /// What the threads found: why the latest failed resource failed, whether the latest
    /// answer was cut short, the URLs opened. Threading: in a `Locked`.
    private struct Outcome {
        var failure: PlayerError?
        var lastReadFailed = false
        var opened: Set<String> = []
    }

    /// Starts serving; `manifest` is the URL the demuxer reads from its own input (never
    /// opened here).
    init(manifest: String, cache: StreamCache) throws(PlayerError) {
        self.manifest = manifest
        self.cache = cache
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .internalError("no socket for the cache relay: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .internalError("the cache relay cannot listen on 127.0.0.1: \(reason)")
        }
        listener = fd
        // The system generator is cryptographically secure (getrandom on Linux).
        var generator = SystemRandomNumberGenerator()
        let token = (0..<2).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
        self.address = RelayAddress(port: Int(UInt16(bigEndian: address.sin_port)), token: token, manifest: manifest)
        acceptThread = EngineThread(name: "reel.relay") { [self] in acceptLoop() }
    }

    deinit { Glibc.close(listener) }

    /// Why the latest resource that failed did (a 404, the network gone): what a DASH input
    /// that cannot open says (as `NestedResources.problem`), not a failure of what plays.
    var failure: PlayerError? { state.withLock { $0.failure } }

    /// The latest answer was cut short by a failure (see `CachedIO.lastReadFailed`).
    var lastReadFailed: Bool { state.withLock { $0.lastReadFailed } }

    /// Every URL served from the cache, so a live stream's can be dropped again.
    var opened: Set<String> { state.withLock { $0.opened } }

    /// Stops accepting, cuts the open connections, and waits for every thread.
    func stop() {
        interrupt.abort()
        // Wakes the accept thread's poll (Linux reports a hang-up on a listener shut down).
        shutdown(listener, Int32(SHUT_RDWR))
        acceptThread?.join()
        acceptThread = nil
        let all = connections.withLock { c in
            defer { c.running = [:]; c.done = [] }
            return c.running.values
        }
        for connection in all { shutdown(connection.fd, Int32(SHUT_RDWR)) }
        for connection in all {
            connection.thread.join()
            Glibc.close(connection.fd)
        }
    }

    /// Joins the threads that are done and closes their sockets (on the accept thread).
    private func reap() {
        let finished = connections.withLock { c in
            defer { c.done = [] }
            return c.done.compactMap { c.running.removeValue(forKey: $0) }
        }
        for connection in finished {
            connection.thread.join()
            Glibc.close(connection.fd)
        }
    }

    // MARK: - Threads

    private func acceptLoop() {
        while !interrupt.isAborted {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            // Sleeps until a connection comes or `stop` shuts the listener down.
            guard poll(&poller, 1, -1) > 0, !interrupt.isAborted else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                // A listener that fails for another reason would wake poll at once for ever.
                if errno != EINTR && errno != ECONNABORTED && errno != EAGAIN { usleep(10_000) }
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var timeout = timeval(tv_sec: Int(MediaInput.networkTimeout), tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            reap()
            // The thread is stored before it can mark itself done: the lock is held over its start.
            connections.withLock { c in
                c.next += 1
                let id = c.next
                let thread = EngineThread(name: "reel.relay.io") { [self] in
                    serve(fd)
                    shutdown(fd, Int32(SHUT_RDWR))
                    connections.withLock { _ = $0.done.insert(id) }
                }
                c.running[id] = (thread, fd)
            }
        }
    }

    private func serve(_ fd: Int32) {
        guard let head = readHead(fd), let request = RelayExchange.parse(head),
              let url = address.remote(target: request.target) else {
            write(fd, RelayExchange.failure(400))
            return
        }
        // The manifest is open as the demuxer's own input (a dynamic one is read again here).
        let missing = url == manifest ? nil : { () -> Bool? in
            guard let entry = CacheEntry.open(url: url, directory: cache.directory, needsValidation: Self.changes(url),
                                              lockWait: 0.25, interrupt: interrupt) else { return nil }
            return answer(fd, request, entry: entry)
        }()
        guard let missing else {
            write(fd, RelayExchange.redirect(to: url))
            return
        }
        // What the server says is not there is not kept as an empty entry (once the entry is
        // closed and let go: its lock goes with it).
        if missing { cache.remove(url: url) }
    }

    /// Answers `request` from `entry` (opened for the relay's use); true when the server said
    /// the resource is not there.
    private func answer(_ fd: Int32, _ request: RelayExchange.Request, entry: CacheEntry) -> Bool {
        let url = entry.url
        state.withLock { _ = $0.opened.insert(url) }
        let download = CacheDownload(entry: entry, options: cache.options, fetchEverything: false) { _ in }
        download.start()
        defer {
            entry.close()
            download.join()
            entry.persist()
        }
        let length = entry.length(interrupt: interrupt)
        let (answerHead, range) = RelayExchange.answer(request, length: length)
        // The first bytes are read before answering: an error status reaches the entry after
        // the response that validated it, and must be answered as such, not as a short body.
        var buffer = [UInt8](repeating: 0, count: Int(CachedIO.bufferSize))
        var position = range?.lowerBound ?? 0
        var n = FFmpegError.eof
        if let range, !range.isEmpty {
            let wanted = Int(min(Int64(buffer.count), range.upperBound - range.lowerBound))
            n = buffer.withUnsafeMutableBytes { entry.read(into: $0.baseAddress!, count: wanted, at: position, interrupt: interrupt) }
        }
        if let failure = entry.currentFailure {
            // As a nested open that fails: the demuxer decides (FFmpeg's DASH demuxer asks for
            // one segment past the end of a template and takes the 404 as the end).
            state.withLock { $0.failure = failure }
            let missing = failure.message.contains("404")
            write(fd, RelayExchange.failure(missing ? 404 : 502))
            return missing
        }
        guard entry.isValidated, write(fd, answerHead), let range else { return false }
        var failed = false
        while true {
            if n == FFmpegError.eof { break }
            if n <= 0 {
                failed = true
                break
            }
            guard buffer.withUnsafeBytes({ send(fd, $0.baseAddress!, Int(n)) }) else { return false }
            position += Int64(n)
            guard position < range.upperBound else { break }
            let wanted = Int(min(Int64(buffer.count), range.upperBound - position))
            n = buffer.withUnsafeMutableBytes { entry.read(into: $0.baseAddress!, count: wanted, at: position, interrupt: interrupt) }
        }
        state.withLock { s in
            s.lastReadFailed = failed
            if failed, let failure = entry.currentFailure { s.failure = failure }
        }
        return false
    }

    /// Manifests change on the server (a dynamic one grows); segments do not under one URL.
    static func changes(_ url: String) -> Bool {
        url.lowercased().split(separator: "?").first?.hasSuffix(".mpd") ?? false
    }

    private func readHead(_ fd: Int32) -> String? {
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while data.count < RelayExchange.largestHead {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            guard n > 0 else { return nil }
            data.append(contentsOf: chunk[..<n])
            if let end = data.firstRange(of: [13, 10, 13, 10]) {
                return String(decoding: data[..<end.lowerBound], as: UTF8.self)
            }
        }
        return nil
    }

    @discardableResult
    private func write(_ fd: Int32, _ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { send(fd, $0.baseAddress!, $0.count) }
    }

    private func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
        var sent = 0
        while sent < count {
            let n = Glibc.send(fd, bytes + sent, count - sent, Int32(MSG_NOSIGNAL))
            if n < 0 && errno == EINTR { continue }
            guard n > 0, !interrupt.isAborted else { return false }
            sent += n
        }
        return true
    }
}
