import Foundation

/// The demuxed packets waiting for one decoder, with seek markers in line.
/// A seek clears the queue and leaves a `.flush` marker, so the decoder resets exactly between
/// the old packets and the new ones (ffplay's serial scheme).
/// Threading: `push`/`flush` from the demux thread, `pop` from one decoder thread, stats anywhere.
final class PacketQueue: @unchecked Sendable {
    enum Item {
        case packet(Packet, serial: Int)
        case flush(SeekRequest)
        case endOfStream(serial: Int)
    }

    // Safe: all state is guarded by `condition`.
    private let condition = NSCondition()
    private var items = FIFO<Item>()
    private var bytes = 0
    private var packets = 0
    private var aborted = false
    private let consumed: Wakeup

    /// `consumed` is signalled when a packet leaves a queue that has run low, so a waiting
    /// demuxer refills in bursts rather than waking for every packet; and when it leaves a
    /// queue holding so much that taking it may bring the total under the demuxer's budget
    /// (`Demuxer.maxQueuedBytes`): the demuxer waits for nothing else.
    init(consumed: Wakeup) { self.consumed = consumed }

    /// Below this many packets (or bytes), every packet taken wakes the demuxer.
    static let refillPackets = 32
    static let refillBytes = 2 << 20
    /// Above this many bytes, every packet taken wakes the demuxer (rare: only a stream of
    /// very large packets fills a queue past a quarter of the budget before 48 packets).
    static let budgetShare = Demuxer.maxQueuedBytes / 4

    func push(_ item: Item) {
        condition.lock()
        if case .packet(let p, _) = item { bytes += p.size; packets += 1 }
        items.append(item)
        condition.signal()
        condition.unlock()
    }

    /// Drops every queued item and puts the seek marker first in line.
    func flush(_ request: SeekRequest) {
        condition.lock()
        // An audio stream switch the decoder has not met yet must survive a newer seek.
        var request = request
        if request.audioSwitch == nil {
            items.forEach { if case .flush(let waiting) = $0, let change = waiting.audioSwitch { request.audioSwitch = change } }
        }
        items.removeAll()
        bytes = 0
        packets = 0
        items.append(.flush(request))
        condition.signal()
        condition.unlock()
    }

    /// The next item; blocks while empty. Nil once aborted.
    func pop() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !aborted { condition.wait() }
        if aborted { return nil }
        let item = items.popFirst()!
        if case .packet(let p, _) = item { bytes -= p.size; packets -= 1 }
        if packets <= Self.refillPackets || bytes <= Self.refillBytes || bytes >= Self.budgetShare { consumed.signal() }
        return item
    }

    func abort() {
        condition.lock()
        aborted = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    var byteCount: Int { condition.lock(); defer { condition.unlock() }; return bytes }
    var packetCount: Int { condition.lock(); defer { condition.unlock() }; return packets }
    var isEmpty: Bool { condition.lock(); defer { condition.unlock() }; return items.isEmpty }
}
