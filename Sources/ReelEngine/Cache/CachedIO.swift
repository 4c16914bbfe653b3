import CFFmpeg
import Foundation

/// An AVIOContext whose bytes come from a cache entry (which its download thread fills), so
/// FFmpeg reads and seeks as in a local file while the network works behind it.
/// Threading: FFmpeg calls `read`/`seek` on the thread using the context (demux or loader);
/// `close` from the owner once FFmpeg is done with it.
final class CachedIO: @unchecked Sendable {
    // Safe: `position` and `lastReadFailed` are touched only by FFmpeg's callbacks, which run on
    // the one thread using the context, and read by that thread's demuxer between its calls into
    // FFmpeg; `entry` and `download` are thread-safe.
    let entry: CacheEntry
    private let download: CacheDownload
    private let interrupt: InterruptFlag
    private var position: Int64 = 0
    /// The last read FFmpeg asked for failed (the download gave up, the wait for bytes was cut
    /// short) rather than reaching the end: what follows is not a clean end of the media, even
    /// where FFmpeg's byte context no longer carries the error.
    private(set) var lastReadFailed = false
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    static let bufferSize: Int32 = 64 << 10

    init(entry: CacheEntry, download: CacheDownload, interrupt: InterruptFlag) throws(PlayerError) {
        self.entry = entry
        self.download = download
        self.interrupt = interrupt
        guard let buffer = av_malloc(Int(Self.bufferSize)) else { throw .internalError("out of memory") }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, opaque,
            { opaque, buf, size in
                let io = Unmanaged<CachedIO>.fromOpaque(opaque!).takeUnretainedValue()
                return io.read(buf!, Int(size))
            }, nil,
            { opaque, offset, whence in
                Unmanaged<CachedIO>.fromOpaque(opaque!).takeUnretainedValue().seek(offset, whence)
            })
        guard let context else { av_free(buffer); throw .internalError("out of memory") }
        context.pointee.seekable = AVIO_SEEKABLE_NORMAL
        download.start()
    }

    private func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int32 {
        let n = entry.read(into: buffer, count: size, at: position, interrupt: interrupt)
        if n > 0 { position += Int64(n) }
        lastReadFailed = n < 0 && n != FFmpegError.eof
        return n
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        let how = whence & ~AVSEEK_FORCE
        if how == AVSEEK_SIZE { return entry.length(interrupt: interrupt) ?? -1 }
        let target: Int64
        switch how {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END:
            guard let length = entry.length(interrupt: interrupt) else { return Int64(FFmpegError.io) }
            target = length + offset
        default: return Int64(FFmpegError.io)
        }
        guard target >= 0 else { return Int64(FFmpegError.io) }
        position = target
        return target
    }

    /// Ends the download and frees the context.
    func close() {
        entry.close()
        download.join()
        entry.persist()
        if context != nil {
            av_freep(&context!.pointee.buffer)
            avio_context_free(&context)
        }
    }
}

extension FFmpegError {
    static let io = reel_averror(EIO)
}
