import CFFmpeg
import Foundation

/// What a remote playlist makes the demuxer open inside the media (variant and rendition
/// playlists, segments, keys), checked as each opens. FFmpeg's HLS demuxer parses every
/// playlist a master names and adds the variants *that* one names to the list it is walking,
/// so a master that names itself (or a chain of masters) is parsed without end. HLS allows
/// only media playlists there: a master playlist opened that way is refused, and so is every
/// playlist past `maximumPlaylists` while the media opens (a master hiding its tags past
/// what is looked at, or a server inventing playlists). The first refusal, else the last
/// failure to open, says why media that could not open failed.
/// Threading: used by the one thread using the format context (the loader, then the demuxer).
final class NestedResources {
    /// Playlists the demuxer may open while the media opens: far more variants and renditions
    /// than any real master has.
    static let maximumPlaylists = 256
    /// The most of each resource looked at for playlist tags.
    static let sniffedBytes = 16 << 10

    private let interrupt: InterruptFlag
    private var playlists = 0
    private var refusal: PlayerError?
    private var lastFailure: PlayerError?
    /// Cleared once the media is open: a live playlist is then reloaded as long as it plays.
    var opening = true

    init(interrupt: InterruptFlag) {
        self.interrupt = interrupt
    }

    /// Why nested resources did not open: a refusal first, else the last network failure.
    var problem: PlayerError? { refusal ?? lastFailure }

    /// Notes why `url` did not open (a network error names it, for the message).
    func failed(_ error: PlayerError, url: String) {
        if case .networkError(let text) = error, !text.contains(url) {
            lastFailure = .networkError("\(text): \(url)")
        } else {
            lastFailure = error
        }
    }

    /// Looks at the start of a resource just opened (then goes back to its start): 0 when it
    /// may be used, else the error to give the demuxer (the caller closes it). Only what its
    /// first read brings is looked at: that is still in the context's buffer, so going back
    /// costs no request and works where the server cannot seek (a live segment sent as it is
    /// made). A playlist hiding its tags further on meets `maximumPlaylists` instead.
    func check(_ pb: UnsafeMutablePointer<AVIOContext>, url: String) -> Int32 {
        var head = [UInt8](repeating: 0, count: Self.sniffedBytes)
        let filled = max(0, Int(head.withUnsafeMutableBufferPointer { avio_read_partial(pb, $0.baseAddress!, Int32($0.count)) }))
        let back = avio_seek(pb, 0, SEEK_SET)
        if back < 0 { return Int32(truncatingIfNeeded: back) }
        let data = Data(head.prefix(filled))
        guard PlaylistLinks.isPlaylist(data) else { return 0 }
        if PlaylistLinks.isMaster(String(decoding: data, as: UTF8.self)) {
            refuse(.corruptData("\(url) is a master playlist where a media playlist belongs (a playlist naming itself or another master as a variant)"))
            return FFmpegError.invalidData
        }
        // Past the bound, no playlist opens again (a reload of one would start it over).
        if opening { playlists += 1 }
        if playlists > Self.maximumPlaylists {
            refuse(.corruptData("the playlist names more than \(Self.maximumPlaylists) playlists (the last: \(url))"))
            return FFmpegError.invalidData
        }
        return 0
    }

    private func refuse(_ error: PlayerError) {
        if refusal == nil { refusal = error }
    }

    // MARK: - Without the cache

    /// Opens a nested resource with FFmpeg's own http (no cache), remote protocols only, the
    /// demuxer's options passed on (byte ranges, headers), and checks it.
    func openUncached(_ url: String, options: UnsafeMutablePointer<OpaquePointer?>?,
                      into pb: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>) -> Int32 {
        let scheme = URL(string: url)?.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else { return reel_averror(EPERM) }
        var cb = interrupt.callback
        let mine = AVOptions()
        if let options { av_dict_copy(&mine.pointer, options.pointee, 0) }
        mine.set("protocol_whitelist", ProtocolPolicy.remote)
        let result = avio_open2(pb, url, AVIO_FLAG_READ, &cb, &mine.pointer)
        guard result >= 0, let opened = pb.pointee else {
            if let source = try? MediaSource(parsing: url) { failed(ErrorMapping.openError(result, source: source), url: url) }
            return result
        }
        let verdict = check(opened, url: url)
        if verdict < 0 { avio_closep(pb) }
        return verdict
    }

    /// Makes a format context open nested resources through `openUncached` (media read
    /// without the cache); `self` must outlive it.
    func install(in context: UnsafeMutablePointer<AVFormatContext>) {
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.io_open = { s, pb, url, flags, options in
            guard let s, let pb, let url, let opaque = s.pointee.opaque else { return FFmpegError.io }
            guard (flags & AVIO_FLAG_WRITE) == 0 else { return reel_averror(EPERM) }
            let nested = Unmanaged<NestedResources>.fromOpaque(opaque).takeUnretainedValue()
            return nested.openUncached(String(cString: url), options: options, into: pb)
        }
    }
}
