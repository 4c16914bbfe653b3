import Foundation

/// A level-triggered wakeup: `signal()` from any thread ends the current or the next `wait`.
/// Threading: any thread.
final class Wakeup: @unchecked Sendable {
    // Safe: `pending` is guarded by `condition`.
    private let condition = NSCondition()
    private var pending = false

    func signal() {
        condition.lock()
        pending = true
        condition.signal()
        condition.unlock()
    }

    /// Waits until signalled (at once when a signal came since the last wait).
    func wait() {
        condition.lock()
        while !pending { condition.wait() }
        pending = false
        condition.unlock()
    }

    /// Waits until signalled or `timeout` seconds pass (a caller's own bound, not a poll).
    func wait(timeout: Double) {
        condition.lock()
        if !pending { _ = condition.wait(until: Date(timeIntervalSinceNow: timeout)) }
        pending = false
        condition.unlock()
    }
}
