import Foundation

/// A value made once per test process, by whichever test asks first; later askers get the same
/// value (or the same error). Threading: any test thread.
public final class Once<Value>: @unchecked Sendable {
    // Safe: `result` is guarded by `lock`; `make` runs with the lock held, at most once.
    private let lock = NSLock()
    private var result: Result<Value, Error>?
    private let make: () throws -> Value

    public init(_ make: @escaping () throws -> Value) { self.make = make }

    public func get() throws -> Value {
        lock.lock()
        defer { lock.unlock() }
        if result == nil { result = Result { try make() } }
        return try result!.get()
    }
}

/// Local TCP ports for test servers. Threading: pure functions.
public enum LocalPort {
    /// A port nothing listens on right now.
    public static func free() throws -> Int { try SilentServer().port }

    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Waits until the server process `pid` accepts connections on `port`; throws with `log`'s
    /// contents if it dies or takes longer than `timeout`.
    public static func waitUntilAccepting(_ port: Int, pid: Int32, name: String, log: String? = nil,
                                   timeout: Double = 15) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !accepts(port) {
            guard Command.isRunning(pid), Date() < deadline else {
                let text = log.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? "\(name) did not start"
                throw Command.Failure(command: [name], result: .init(status: -1, stdout: Data(), stderr: Data(text.utf8)))
            }
            usleep(50_000)
        }
    }
}
