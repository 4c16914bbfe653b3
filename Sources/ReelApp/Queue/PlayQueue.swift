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

    init(items: [MediaSource] = [], current: Int? = nil) {
        self.items = items
        order = Array(items.indices)
        self.current = items.isEmpty ? nil : current.map { min(max($0, 0), items.count - 1) }
    }

    var isEmpty: Bool { items.isEmpty }
    var currentItem: MediaSource? { current.map { items[$0] } }

    // MARK: Editing

    /// Replaces everything; `start` becomes current.
    mutating func replace(with newItems: [MediaSource], start: Int = 0) {
        items = newItems
        order = Array(items.indices)
        current = items.isEmpty ? nil : min(max(start, 0), items.count - 1)
        stopAfterCurrent = false
        if shuffle { reshuffle() }
    }

    /// Adds at the end (in play order too: shuffled items join the rest of the order at random).
    mutating func append(_ newItems: [MediaSource]) {
        let first = items.count
        items += newItems
        let added = Array(first..<items.count)
        if shuffle {
            let playedThrough = current.flatMap { order.firstIndex(of: $0) } ?? -1
            for index in added {
                order.insert(index, at: Int.random(in: (playedThrough + 1)...order.count))
            }
        } else {
            order += added
        }
        if current == nil, !items.isEmpty { current = 0 }
    }

    /// Removes item `index`. Removing the current one leaves no item current; the caller
    /// opens what comes next.
    mutating func remove(at index: Int) {
        guard items.indices.contains(index) else { return }
        items.remove(at: index)
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
        case items, current, loop, stopAfterCurrent, shuffle, order
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // An item that no longer parses keeps its place (the order refers to places) and
        // fails to open like a missing file.
        items = try c.decode([String].self, forKey: .items).map { (try? MediaSource(parsing: $0)) ?? MediaSource(path: $0) }
        current = try c.decodeIfPresent(Int.self, forKey: .current)
        loop = try c.decode(LoopMode.self, forKey: .loop)
        stopAfterCurrent = try c.decode(Bool.self, forKey: .stopAfterCurrent)
        shuffle = try c.decode(Bool.self, forKey: .shuffle)
        order = try c.decode([Int].self, forKey: .order)
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(items.map(\.description), forKey: .items)
        try c.encodeIfPresent(current, forKey: .current)
        try c.encode(loop, forKey: .loop)
        try c.encode(stopAfterCurrent, forKey: .stopAfterCurrent)
        try c.encode(shuffle, forKey: .shuffle)
        try c.encode(order, forKey: .order)
    }
}
