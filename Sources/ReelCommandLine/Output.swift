import Foundation
import Glibc

/// One JSON object per line on stdout, with stable key order so output diffs cleanly.
/// Threading: serialised by a lock; callable from event threads.
public enum Output {
    private static let lock = NSLock()

    public static func line(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: clean(object),
                                                      options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        lock.lock()
        defer { lock.unlock() }
        write(data + Data("\n".utf8), to: STDOUT_FILENO)
    }

    /// Writes everything or, when the reader has gone away (a closed pipe), ends the process
    /// quietly with status 2: nobody is left to read an error line. Foundation's FileHandle
    /// would trap instead.
    private static func write(_ data: Data, to fd: Int32) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n; continue }
                if n < 0 && errno == EINTR { continue }
                if fd == STDOUT_FILENO { _exit(2) }
                return
            }
        }
    }

    public static func error(code: String, message: String) {
        line(["error": ["code": code, "message": message]])
    }

    /// A human-readable line on stderr (progress, warnings), never mixed into the JSON.
    public static func note(_ text: String) {
        lock.lock()
        write(Data((text + "\n").utf8), to: STDERR_FILENO)
        lock.unlock()
    }

    /// Progress for people on stderr, without a line break of its own.
    public static func progress(_ text: String) {
        lock.lock()
        write(Data(text.utf8), to: STDERR_FILENO)
        lock.unlock()
    }

    public static func flush() {  /* FileHandle writes are unbuffered */  }

    /// Rounds seconds and milliseconds to sensible precision and drops non-finite numbers.
    public static func round(_ value: Double, _ digits: Int = 3) -> Double {
        let scale = pow(10, Double(digits))
        return (value * scale).rounded() / scale
    }

    private static func clean(_ value: Any) -> Any {
        switch value {
        case let d as Double: return d.isFinite ? d : NSNull()
        case let dict as [String: Any]: return dict.mapValues(clean)
        case let array as [Any]: return array.map(clean)
        case Optional<Any>.none: return NSNull()
        default: return value
        }
    }
}
