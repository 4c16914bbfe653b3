import Foundation

/// Runs one piece of work per item, each on a thread of its own, all at once, and returns
/// what each gave, in the items' order. For tests that play media in real time: their cases
/// spend their time waiting for the clock, not computing, so they can share those seconds.
/// The work only gathers what happened; the test judges the results afterwards, on its own
/// thread, where each expectation is attributed to it.
/// Threading: call from a test's thread; `work` runs on threads started here.
public enum AtOnce {
    public static func map<Item: Sendable, Outcome: Sendable>(
        _ items: [Item], _ work: @escaping @Sendable (Item) throws -> Outcome
    ) -> [Result<Outcome, Error>] {
        let results = Locked([Int: Result<Outcome, Error>]())
        let group = DispatchGroup()
        for (index, item) in items.enumerated() {
            group.enter()
            let thread = Thread {
                let outcome = Result { try work(item) }
                results.withLock { $0[index] = outcome }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return results.withLock { table in items.indices.map { table[$0]! } }
    }
}
