import Foundation

/// The control thread's inbox: any thread posts, the control thread receives in order.
/// Threading: `post` from any thread; `receive` from the control thread only.
final class Mailbox<Message>: @unchecked Sendable {
    // Safe: `messages` is guarded by `condition`.
    private let condition = NSCondition()
    private var messages = FIFO<Message>()

    func post(_ message: Message) {
        condition.lock()
        messages.append(message)
        condition.signal()
        condition.unlock()
    }

    /// The next message, waiting at most until `deadline` (nil: until one comes); nil when
    /// the deadline passed first.
    func receive(until deadline: HostTime?) -> Message? {
        condition.lock()
        defer { condition.unlock() }
        while messages.isEmpty {
            guard let deadline else { condition.wait(); continue }
            let left = deadline.seconds(since: .now)
            if left <= 0 || !condition.wait(until: Date(timeIntervalSinceNow: left)) { return messages.popFirst() }
        }
        return messages.popFirst()
    }
}
