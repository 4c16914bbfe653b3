import CFFmpeg

/// Keeping a DASH presentation offline. Its segments are named by templates, timelines and
/// byte ranges that FFmpeg's DASH demuxer already resolves, so rather than a second reading
/// of the manifest, the demuxer reads every stream to its end through the cache (each segment
/// fetched by the relay as it asks) without decoding anything. A live manifest is refused.
extension OfflineDownload {
    func keepDash(done: Int64, progress: (DownloadProgress) -> Void) throws(PlayerError) {
        let source = try MediaSource(parsing: url)
        let session = CacheSession(cache: StreamCache(options: options), interrupt: interrupt) { _ in }
        let input = try MediaInput(source: source, interrupt: interrupt, cache: session)
        defer { input.close() }
        guard !input.isLiveStream else {
            throw .unsupportedSource("\(url) is a live stream: it cannot be kept offline")
        }
        input.keepOnly(streams: Set(0..<input.streamCount))
        let packet = Packet()
        var bytes = done
        var lastReport = HostTime.now
        while true {
            if interrupt.isAborted { throw .networkError("cancelled: \(url)") }
            let result = input.read(into: packet)
            if result == FFmpegError.again {
                input.waitForData()
                continue
            }
            if result < 0 {
                if let failure = input.cacheFailure { throw failure }
                if input.cacheReadFailed || result != FFmpegError.eof {
                    throw .networkError("\(url) could not be read to its end (\(FFmpegError.text(for: result)))")
                }
                break
            }
            bytes += Int64(packet.size)
            packet.unref()
            if bytes > options.sizeLimit {
                throw .unsupportedSource("\(url) is larger than the cache may hold (\(options.sizeLimit >> 20) MB): it cannot be kept offline")
            }
            if HostTime.now.seconds(since: lastReport) > 0.25 {
                lastReport = .now
                progress(DownloadProgress(bytes: bytes, expected: nil, ranges: []))
            }
        }
        progress(DownloadProgress(bytes: bytes, expected: bytes, ranges: []))
    }
}
