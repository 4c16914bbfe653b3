import Foundation

/// One decoder's send-packet / receive-frame loop, shared by the video and the audio decode
/// threads (ffplay's `decoder_decode_frame`): packets come from the queue with their serial,
/// those of an older serial than the last seek marker (or after the end) are dropped, a packet
/// the decoder cannot take yet is sent again once its frames are taken, and the end of stream
/// drains the decoder. What happens is handed back as a value (`next()`), never thrown; each
/// worker keeps only what is its own.
/// Threading: used by one decoder thread only.
final class DecodePump {
    enum Event {
        /// A frame is decoded into `frame`.
        case frame
        /// A seek marker: the decoder was flushed, and what follows is `request`'s.
        case flushed(SeekRequest)
        /// A packet of the current serial is about to be sent (the worker may steer the decoder
        /// for it, as the video's skipping of pictures before an exact target does).
        case sending(Packet)
        /// Every frame of the stream's end for the current serial has been handed out.
        case ended(serial: Int)
        /// The queue was aborted: the session is going.
        case aborted
    }

    /// The decoder; the audio worker puts another in at a flush that switches streams.
    var decoder: Decoder
    /// Where `next()` puts each decoded frame.
    let frame = Frame()
    /// The serial of the last seek marker, which the packets decoded carry.
    private(set) var serial = -1
    private let packets: PacketQueue
    private let errors: Locked<Int>
    /// A packet to send; kept while the decoder is full.
    private var pending: Packet?
    private var phase = Phase.waiting
    /// The end was drained: nothing more until the next seek marker.
    private var drained = false

    private enum Phase {
        /// Nothing to take from the decoder: the next packet goes in.
        case waiting
        /// Frames may be waiting in the decoder.
        case receiving
        /// The end was sent: every remaining frame comes out, then `.ended`.
        case draining
    }

    /// Decode errors are counted into `errors`.
    init(decoder: Decoder, packets: PacketQueue, errors: Locked<Int>) {
        self.decoder = decoder
        self.packets = packets
        self.errors = errors
    }

    /// The next thing that happened; blocks while the queue is empty.
    func next() -> Event {
        while true {
            switch phase {
            case .receiving, .draining:
                switch decoder.receive(into: frame) {
                case .frame:
                    return .frame
                case .error:
                    errors.withLock { $0 += 1 }
                    fallthrough
                case .needsInput, .endOfStream:
                    let wasDraining = phase == .draining
                    phase = .waiting
                    if wasDraining {
                        drained = true
                        return .ended(serial: serial)
                    }
                }
            case .waiting:
                if let packet = pending {
                    switch decoder.send(packet) {
                    case .accepted:
                        pending = nil
                        phase = .receiving
                    case .full:
                        phase = .receiving   // sent again once the frames waiting are taken
                    case .error:
                        pending = nil
                        errors.withLock { $0 += 1 }
                    }
                    continue
                }
                guard let item = packets.pop() else { return .aborted }
                switch item {
                case .flush(let request):
                    decoder.flush()
                    serial = request.serial
                    drained = false
                    return .flushed(request)
                case .packet(let packet, let packetSerial):
                    guard packetSerial == serial, !drained else { continue }
                    pending = packet
                    return .sending(packet)
                case .endOfStream(let endSerial):
                    guard endSerial == serial, !drained else { continue }
                    // Draining decodes whatever is left; nothing may be skipped any more.
                    decoder.skipsNonReferenceFrames = false
                    _ = decoder.send(nil)
                    phase = .draining
                }
            }
        }
    }
}
