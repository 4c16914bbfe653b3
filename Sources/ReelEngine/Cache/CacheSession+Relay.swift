import CFFmpeg

/// DASH through the cache. FFmpeg's DASH demuxer opens segments with its own http client, not
/// through the format context's `io_open` hook, so `CacheSession`'s nested opens never see
/// them. The demuxer is given the manifest under the address of a `CacheRelay` instead: it
/// reads the manifest Reel read from the cached top input (bounded, and a finished dynamic
/// one made static: `DashManifest`), and the segments it resolves against that address come
/// from the cache through the relay (a manifest's absolute segment URLs still go straight to
/// their servers, uncached, under the same protocol whitelist).
extension CacheSession {
    /// The URL and input the demuxer `format` is to open the top resource `url` by (`io`, the
    /// top input, probed): for DASH the relay's address and the manifest in memory (the relay
    /// then runs until `close`); for the rest `url` and `io` themselves.
    func demuxerInput(_ url: String, format: UnsafePointer<AVInputFormat>?,
                      io: UnsafeMutablePointer<AVIOContext>) throws(PlayerError)
        -> (url: String, io: UnsafeMutablePointer<AVIOContext>) {
        guard let format, String(cString: format.pointee.name) == "dash", top != nil else { return (url, io) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBufferPointer { avio_read(io, $0.baseAddress!, Int32($0.count)) }
            if n <= 0 { break }
            bytes += chunk[..<Int(n)]
            if bytes.count > DashManifest.largest {
                throw .corruptData("the manifest is larger than \(DashManifest.largest >> 20) MB: \(url)")
            }
        }
        if let failure { throw failure }
        if let finished = DashManifest.finished(String(decoding: bytes, as: UTF8.self)) { bytes = Array(finished.utf8) }
        let manifest = try MemoryInput(bytes)
        let relay = try CacheRelay(manifest: url, cache: cache)
        self.relay = relay
        manifestInput = manifest
        guard let local = relay.address.local(url), let context = manifest.context else { return (url, io) }
        return (local, context)
    }

    /// Stops the relay, keeping what it opened to forget with the rest.
    func stopRelay() {
        manifestInput?.close()
        manifestInput = nil
        guard let relay else { return }
        relay.stop()
        noteOpened(relay.opened)
        self.relay = nil
    }
}
