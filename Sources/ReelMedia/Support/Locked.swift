import Foundation

/// A value guarded by a mutex, for small state shared between engine threads.
/// Threading: any thread; `withLock` bodies must be short and must not block.
package final class Locked<Value>: @unchecked Sendable {
    // Safe: every access to `value` goes through `lock`.
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) { self.value = value }

    @discardableResult
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    package var current: Value { withLock { $0 } }
}
