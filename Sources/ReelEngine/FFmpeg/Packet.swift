import CFFmpeg

/// An owned AVPacket. Threading: handed from the demux thread to one decoder thread through a
/// queue; only one thread touches it at a time.
final class Packet: @unchecked Sendable {
    // Safe: single owner at a time, transferred through locked queues.
    let pointer: UnsafeMutablePointer<AVPacket>

    init() {
        guard let p = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = p
    }

    deinit { av_packet_free_wrapper(pointer) }

    /// Moves the contents of `other` into a new packet, leaving `other` empty for reuse.
    static func takingContents(of other: Packet) -> Packet {
        let packet = Packet()
        av_packet_move_ref(packet.pointer, other.pointer)
        return packet
    }

    var streamIndex: Int { Int(pointer.pointee.stream_index) }
    var size: Int { Int(pointer.pointee.size) }
    var pts: Int64 { pointer.pointee.pts }
    var dts: Int64 { pointer.pointee.dts }
    var duration: Int64 { pointer.pointee.duration }
    var isKey: Bool { reel_packet_is_key(pointer) != 0 }
    func unref() { av_packet_unref(pointer) }
}

private func av_packet_free_wrapper(_ p: UnsafeMutablePointer<AVPacket>) {
    var p: UnsafeMutablePointer<AVPacket>? = p
    av_packet_free(&p)
}
