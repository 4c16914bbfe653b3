import CFFmpeg

/// An owned AVPacket. Threading: handed from the demux thread to one decoder thread through a
/// queue; only one thread touches it at a time.
package final class Packet: @unchecked Sendable {
    // Safe: single owner at a time, transferred through locked queues.
    package let pointer: UnsafeMutablePointer<AVPacket>

    package init() {
        guard let p = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = p
    }

    deinit { av_packet_free_wrapper(pointer) }

    /// Moves the contents of `other` into a new packet, leaving `other` empty for reuse.
    package static func takingContents(of other: Packet) -> Packet {
        let packet = Packet()
        av_packet_move_ref(packet.pointer, other.pointer)
        return packet
    }

    package var streamIndex: Int { Int(pointer.pointee.stream_index) }
    package var size: Int { Int(pointer.pointee.size) }
    package var pts: Int64 { pointer.pointee.pts }
    package var dts: Int64 { pointer.pointee.dts }
    package var duration: Int64 { pointer.pointee.duration }
    package var isKey: Bool { reel_packet_is_key(pointer) != 0 }
    package func unref() { av_packet_unref(pointer) }
}

private func av_packet_free_wrapper(_ p: UnsafeMutablePointer<AVPacket>) {
    var p: UnsafeMutablePointer<AVPacket>? = p
    av_packet_free(&p)
}
