import Foundation

/// Keeps a player's events so a script, a tool or a test can wait for the one it needs.
/// Threading: `record` (the sink) runs on the player's control thread; the waits run on any
/// other thread. Never wait on the control thread itself.
public final class PlayerEventRecorder: @unchecked Sendable {
    // Safe: `events` and `forward` are guarded by `condition`.
    private let condition = NSCondition()
    private var events: [PlayerEvent] = []
    private var forward: (@Sendable (PlayerEvent) -> Void)?

    public init() {}

    /// The sink to hand to `Player`.
    public var sink: @Sendable (PlayerEvent) -> Void { { [self] event in record(event) } }

    /// Passes every event on to `forward` as it arrives, before recording it.
    public func setForward(_ forward: @escaping @Sendable (PlayerEvent) -> Void) {
        condition.lock(); self.forward = forward; condition.unlock()
    }

    public func record(_ event: PlayerEvent) {
        condition.lock()
        let forward = self.forward
        condition.unlock()
        forward?(event)
        condition.lock()
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    public var count: Int { condition.lock(); defer { condition.unlock() }; return events.count }
    public var all: [PlayerEvent] { condition.lock(); defer { condition.unlock() }; return events }

    /// Waits until an event at or after index `from` matches; returns it with its index, or nil
    /// when `timeout` seconds pass first.
    public func wait(from: Int = 0, timeout: Double, _ match: (PlayerEvent) -> Bool) -> (event: PlayerEvent, index: Int)? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        var checked = from
        while true {
            while checked < events.count {
                if match(events[checked]) { return (events[checked], checked) }
                checked += 1
            }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits for a state change (at or after `from`) into a state that satisfies `match`.
    public func waitForState(from: Int = 0, timeout: Double, _ match: (PlayerState) -> Bool) -> (state: PlayerState, index: Int)? {
        guard let (event, index) = wait(from: from, timeout: timeout, { event in
            if case .stateChanged(_, let to) = event { return match(to) }
            return false
        }), case .stateChanged(_, let to) = event else { return nil }
        return (to, index)
    }

    /// Waits for the player to settle after `open` (events from index `from` on): ready or
    /// playing (true), or failed (throws). Returns false on timeout.
    public func waitUntilLoaded(from: Int = 0, timeout: Double) throws(PlayerError) -> Bool {
        guard let (state, _) = waitForState(from: from, timeout: timeout, { state in
            switch state { case .ready, .playing, .failed: true; default: false }
        }) else { return false }
        if case .failed(let error) = state { throw error }
        return true
    }
}
