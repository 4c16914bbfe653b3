import Foundation
import ReelCommandLine
import ReelEngine
#if canImport(Glibc)
import Glibc
#endif

/// A client for mpv's JSON IPC (`--input-ipc-server`): newline-separated JSON both ways over a
/// Unix socket; replies carry the `request_id` they answer, events carry `event`.
/// Threading: owned by one thread (not Sendable); every call blocks that thread.
final class MPVClient {
    struct Message {
        let object: [String: Any]
        /// When the line arrived, stamped before it is parsed.
        let at: HostTime
        var event: String? { object["event"] as? String }
        var requestID: Int? { object["request_id"] as? Int }
        var error: String? { object["error"] as? String }
    }

    private let fd: Int32
    private var pending = Data()
    private var lastReceived = HostTime.now

    /// Connects to mpv's socket, retrying until mpv has created it or `timeout` passes.
    init(socketPath: String, timeout: Double) throws(ToolFailure) {
        let deadline = HostTime.now.adding(seconds: timeout)
        while true {
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard s >= 0 else { throw Self.failure("socket", errno) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(socketPath.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
                close(s)
                throw ToolFailure(code: "internal_error", message: "socket path too long: \(socketPath)")
            }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if rc == 0 { fd = s; return }
            let code = errno
            close(s)
            guard code == ENOENT || code == ECONNREFUSED || code == EINTR else { throw Self.failure("connect to mpv", code) }
            guard deadline.seconds(since: .now) > 0 else {
                throw ToolFailure(code: "peer_failed", message: "mpv did not open its IPC socket \(socketPath) within \(Int(timeout)) s")
            }
            usleep(1000)
        }
    }

    deinit { close(fd) }

    /// Sends one command, e.g. `["seek", 12.5, "absolute+exact"]`.
    func send(_ command: [Any], requestID: Int) throws(ToolFailure) {
        let object: [String: Any] = ["command": command, "request_id": requestID]
        guard var data = try? JSONSerialization.data(withJSONObject: object) else {
            throw ToolFailure(code: "internal_error", message: "cannot encode mpv command \(command)")
        }
        data.append(UInt8(ascii: "\n"))
        var sent = 0
        while sent < data.count {
            let n = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, data.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.failure("write to mpv", errno)
            }
            sent += n
        }
    }

    /// The next message from mpv, or `timeout` / `peer_failed` (mpv went away).
    func next(deadline: HostTime) throws(ToolFailure) -> Message {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                pending.removeSubrange(pending.startIndex...newline)
                // Every complete line in the buffer came with the latest read (lines are taken
                // out before the next read), so that read's time is when mpv's answer arrived.
                let at = lastReceived
                guard !line.isEmpty else { continue }
                guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else {
                    continue   // not ours to judge; mpv's replies are always objects
                }
                return Message(object: object, at: at)
            }
            let remaining = deadline.seconds(since: .now)
            guard remaining > 0 else { throw ToolFailure(code: "timeout", message: "mpv did not answer in time") }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(remaining * 1000) + 1)
            if ready < 0 && errno != EINTR { throw Self.failure("poll mpv", errno) }
            guard ready > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Self.failure("read from mpv", errno)
            }
            if n == 0 { throw ToolFailure(code: "peer_failed", message: "mpv closed its IPC connection") }
            lastReceived = .now
            pending.append(contentsOf: buffer[0..<n])
        }
    }

    /// Reads messages until one matches; the skipped ones are passed to `skipped`.
    func wait(deadline: HostTime, skipped: (Message) -> Void = { _ in },
              until match: (Message) -> Bool) throws(ToolFailure) -> Message {
        while true {
            let message = try next(deadline: deadline)
            if match(message) { return message }
            skipped(message)
        }
    }

    private static func failure(_ what: String, _ code: Int32) -> ToolFailure {
        ToolFailure(code: "peer_failed", message: "\(what) failed: \(String(cString: strerror(code)))")
    }
}
