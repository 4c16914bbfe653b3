import Foundation
import ReelEngine

/// The queue: the items in the order the person arranged them, which one is current, and
/// how the end of an item leads on (loop mode, shuffle, stop after the current one).
/// Shuffle plays the items in a random order drawn when it is turned on, starting from the
/// current item, without repeats until all have played; the arranged order is kept for when
/// it is turned off.
/// Threading: a value type.
struct PlayQueue: Codable, Equatable, Sendable {
    /// What to play, parsed once when it was opened.
    private(set) var items: [MediaSource] = []
    /// Index into `items` of the item playing (nil: none yet, or the queue is empty).
    private(set) var current: Int?
    var loop: LoopMode = .none
    /// Stops at the end of the current item instead of going on (cleared when it has).
    var stopAfterCurrent = false
    private(set) var shuffle = false
    /// The play order: a permutation of `items`' indices (the identity unless shuffled).
    private var order: [Int] = []
    /// Each item's identity, parallel to `items`: it stays with the item while it is in the
    /// queue (moves and removals around it keep it), and is never given to another, so the
    /// desktop's remote can name an item even when the same file is in the queue twice.
    private(set) var ids: [Int] = []
    /// The identity the next added item gets.
    private var nextID = 0

    init(items: [MediaSource] = [], current: Int? = nil) {
        self.items = items
        order = Array(items.indices)
        ids = Array(items.indices)
        nextID = items.count
        self.current = items.isEmpty ? nil : current.map { min(max($0, 0), items.count - 1) }
    }

    var isEmpty: Bool { items.isEmpty }
    var currentItem: MediaSource? { current.map { items[$0] } }
    var currentID: Int? { current.map { ids[$0] } }

    /// Where the item with identity `id` is (nil: not in the queue).
    func index(ofID id: Int) -> Int? { ids.firstIndex(of: id) }

    private mutating func newIDs(_ count: Int) -> [Int] {
        defer { nextID += count }
        return Array(nextID..<(nextID + count))
    }

    // MARK: Editing

    /// Replaces everything; `start` becomes current.
    mutating func replace(with newItems: [MediaSource], start: Int = 0) {
        items = newItems
        ids = newIDs(newItems.count)
        order = Array(items.indices)
        current = items.isEmpty ? nil : min(max(start, 0), items.count - 1)
        stopAfterCurrent = false
        if shuffle { reshuffle() }
    }

    /// Adds at the end (in play order too: shuffled items join the rest of the order at random).
    mutating func append(_ newItems: [MediaSource]) {
        insert(newItems, at: items.count)
    }

    /// Adds before item `position` (the count: at the end). Unshuffled, the play order is the
    /// arranged one; shuffled, the new items join the rest of the order at random.
    mutating func insert(_ newItems: [MediaSource], at position: Int) {
        let position = min(max(position, 0), items.count)
        let count = newItems.count
        guard count > 0 else { return }
        items.insert(contentsOf: newItems, at: position)
        ids.insert(contentsOf: newIDs(count), at: position)
        let added = Array(position..<(position + count))
        func shifted(_ i: Int) -> Int { i >= position ? i + count : i }
        current = current.map(shifted)
        if shuffle {
            order = order.map(shifted)
            let playedThrough = current.flatMap { order.firstIndex(of: $0) } ?? -1
            for index in added {
                order.insert(index, at: Int.random(in: (playedThrough + 1)...order.count))
            }
        } else {
            order = Array(items.indices)
        }
        if current == nil, !items.isEmpty { current = 0 }
    }

    /// Removes item `index`. Removing the current one leaves no item current; the caller
    /// opens what comes next.
    mutating func remove(at index: Int) {
        guard items.indices.contains(index) else { return }
        items.remove(at: index)
        ids.remove(at: index)
        order.removeAll { $0 == index }
        order = order.map { $0 > index ? $0 - 1 : $0 }
        if let c = current {
            if c == index { current = nil } else if c > index { current = c - 1 }
        }
    }

    /// Moves item `from` to position `to` (both in the arranged order).
    mutating func move(from: Int, to: Int) {
        guard items.indices.contains(from), items.indices.contains(to), from != to else { return }
        let item = items.remove(at: from)
        items.insert(item, at: to)
        ids.insert(ids.remove(at: from), at: to)
        // Every index between the two shifts by one toward `from`.
        func moved(_ i: Int) -> Int {
            if i == from { return to }
            if from < to, i > from, i <= to { return i - 1 }
            if to < from, i >= to, i < from { return i + 1 }
            return i
        }
        order = order.map(moved)
        current = current.map(moved)
        if !shuffle { order = Array(items.indices) }
    }

    /// Makes item `index` current (a double click in the queue).
    mutating func select(_ index: Int) {
        guard items.indices.contains(index) else { return }
        current = index
    }

    mutating func setShuffle(_ on: Bool) {
        guard on != shuffle else { return }
        shuffle = on
        if on { reshuffle() } else { order = Array(items.indices) }
    }

    /// A new random order that starts with the current item.
    private mutating func reshuffle() {
        var rest = Array(items.indices).filter { $0 != current }
        rest.shuffle()
        order = (current.map { [$0] } ?? []) + rest
    }

    // MARK: Moving on

    private var position: Int? { current.flatMap { order.firstIndex(of: $0) } }

    /// The item that follows the current one. `automatic`: the current one ended by itself
    /// (loop-one repeats it, stop-after-current ends there); otherwise the person asked.
    func nextIndex(automatic: Bool) -> Int? {
        guard !items.isEmpty else { return nil }
        if automatic && stopAfterCurrent { return nil }
        if automatic && loop == .track { return current }
        guard let position else { return order.first }
        if position + 1 < order.count { return order[position + 1] }
        return loop == .playlist ? order.first : nil
    }

    func previousIndex() -> Int? {
        guard !items.isEmpty, let position else { return nil }
        if position > 0 { return order[position - 1] }
        return loop == .playlist ? order.last : nil
    }

    var canGoNext: Bool { nextIndex(automatic: false) != nil }
    var canGoPrevious: Bool { previousIndex() != nil }

    /// Moves on and returns the new current item (nil: the queue is at its end).
    mutating func advance(automatic: Bool) -> MediaSource? {
        guard let next = nextIndex(automatic: automatic) else {
            if automatic { stopAfterCurrent = false }
            return nil
        }
        current = next
        return items[next]
    }

    mutating func goBack() -> MediaSource? {
        guard let previous = previousIndex() else { return nil }
        current = previous
        return items[previous]
    }

    // MARK: Saving

    /// Saved as before sources were parsed: each item as the path or URL it names, so that
    /// queues saved by earlier versions load, and this one's load there.
    private enum CodingKeys: String, CodingKey {
        case items, current, loop, stopAfterCurrent, shuffle, order, ids, nextID
    }

    init(from decoder: Swift.Decoder) throws {  // Swift's: the engine has a Decoder of its own
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // An item that no longer parses keeps its place (the order refers to places) and
        // fails to open like a missing file.
        items = try c.decode([String].self, forKey: .items).map { (try? MediaSource(parsing: $0)) ?? MediaSource(path: $0) }
        current = try c.decodeIfPresent(Int.self, forKey: .current)
        loop = try c.decode(LoopMode.self, forKey: .loop)
        stopAfterCurrent = try c.decode(Bool.self, forKey: .stopAfterCurrent)
        shuffle = try c.decode(Bool.self, forKey: .shuffle)
        order = try c.decode([Int].self, forKey: .order)
        // Queues saved before items had identities (or with a list that does not fit) get new ones.
        let saved = try c.decodeIfPresent([Int].self, forKey: .ids) ?? []
        ids = saved.count == items.count && Set(saved).count == saved.count ? saved : Array(items.indices)
        nextID = max(try c.decodeIfPresent(Int.self, forKey: .nextID) ?? 0, (ids.max() ?? -1) + 1)
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(items.map(\.description), forKey: .items)
        try c.encodeIfPresent(current, forKey: .current)
        try c.encode(loop, forKey: .loop)
        try c.encode(stopAfterCurrent, forKey: .stopAfterCurrent)
        try c.encode(shuffle, forKey: .shuffle)
        try c.encode(order, forKey: .order)
        try c.encode(ids, forKey: .ids)
        try c.encode(nextID, forKey: .nextID)
    }
}
