import ReelTestSupport

extension AtOnce {
    /// As `map`, two items at a time, in the items' order: for external programs that each keep
    /// a core busy for a moment (FFmpeg converting or comparing pictures) on a machine of two.
    /// Threading: call from a test's thread; `work` runs on threads started by `map`.
    static func mapInPairs<Item: Sendable, Outcome: Sendable>(
        _ items: [Item], _ work: @escaping @Sendable (Item) throws -> Outcome
    ) -> [Result<Outcome, Error>] {
        stride(from: 0, to: items.count, by: 2).flatMap { start in
            map(Array(items[start..<min(start + 2, items.count)]), work)
        }
    }
}
