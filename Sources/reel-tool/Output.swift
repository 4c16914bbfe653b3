import Foundation

/// One JSON object per line on stdout, with stable key order so output diffs cleanly.
/// Threading: serialised by a lock; callable from event threads.
enum Output {
    private static let lock = NSLock()

    static func line(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: clean(object),
                                                      options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        lock.lock()
        FileHandle.standardOutput.write(data + Data("\n".utf8))
        lock.unlock()
    }

    static func error(code: String, message: String) {
        line(["error": ["code": code, "message": message]])
    }

    /// A human-readable line on stderr (progress, warnings), never mixed into the JSON.
    static func note(_ text: String) {
        lock.lock()
        FileHandle.standardError.write(Data((text + "\n").utf8))
        lock.unlock()
    }

    static func flush() {  /* FileHandle writes are unbuffered */  }

    /// Rounds seconds and milliseconds to sensible precision and drops non-finite numbers.
    static func round(_ value: Double, _ digits: Int = 3) -> Double {
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
