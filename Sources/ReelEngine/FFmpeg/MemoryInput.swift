import CFFmpeg
import Foundation

/// Bytes held in memory as an AVIOContext FFmpeg reads and seeks in: a manifest Reel read and
/// changed before the demuxer sees it (`DashManifest`).
/// Threading: used by the one thread using the format context; `close` from the owner.
final class MemoryInput: @unchecked Sendable {
    // Safe: `position` is touched only by FFmpeg's callbacks on the one thread reading.
    private let bytes: [UInt8]
    private var position = 0
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    init(_ bytes: [UInt8]) throws(PlayerError) {
        self.bytes = bytes
        let size: Int32 = 16 << 10
        guard let buffer = av_malloc(Int(size)) else { throw .internalError("out of memory") }
        context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), size, 0,
            Unmanaged.passUnretained(self).toOpaque(),
            { opaque, buf, size in
                Unmanaged<MemoryInput>.fromOpaque(opaque!).takeUnretainedValue().read(buf!, Int(size))
            }, nil,
            { opaque, offset, whence in
                Unmanaged<MemoryInput>.fromOpaque(opaque!).takeUnretainedValue().seek(offset, whence)
            })
        guard context != nil else { av_free(buffer); throw .internalError("out of memory") }
    }

    private func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int32 {
        let n = min(size, bytes.count - position)
        guard n > 0 else { return FFmpegError.eof }
        bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + position, count: n) }
        position += n
        return Int32(n)
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        let how = whence & ~AVSEEK_FORCE
        if how == AVSEEK_SIZE { return Int64(bytes.count) }
        let target: Int64
        switch how {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = Int64(position) + offset
        case SEEK_END: target = Int64(bytes.count) + offset
        default: return Int64(FFmpegError.io)
        }
        guard target >= 0, target <= Int64(bytes.count) else { return Int64(FFmpegError.io) }
        position = Int(target)
        return target
    }

    func close() {
        if context != nil {
            av_freep(&context!.pointee.buffer)
            avio_context_free(&context)
        }
    }

    deinit { close() }
}
