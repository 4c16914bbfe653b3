import CFFmpeg
import Foundation

/// An opened, probed media input: the AVIOContext for the bytes and the AVFormatContext over it.
/// Opening is split so each failure maps to a precise error: the protocol (missing file, 404,
/// refused connection), the probe (not media at all), then the demuxer (damaged media).
/// Threading: opened on the demux thread and used only there afterwards; `close` from the owner.
package final class MediaInput: @unchecked Sendable {
    // Safe: owned by one thread at a time (the demux thread), as the type's contract says.
    package private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    package let source: MediaSource
    package let interrupt: InterruptFlag
    /// The network layer remote bytes come through: the disk cache and the checks on what a
    /// remote playlist opens inside the media (nil: a local file, or straight from FFmpeg's http).
    package let remote: (any RemoteOpening)?
    /// How sure FFmpeg's prober was of the format (0–100); low scores mean a guess.
    package let probeScore: Int32

    /// Seconds one blocking network call may take before the open or read fails.
    package static let networkTimeout: Double = 15

    /// `headerRead` receives the duration as soon as the container header gives it, before the
    /// slower stream probing (which may read seconds of data over a network).
    package init(source: MediaSource, interrupt: InterruptFlag, remote: (any RemoteOpening)?, headers: RequestHeaders = RequestHeaders(),
         headerRead: (_ duration: Double?) -> Void = { _ in }) throws(PlayerError) {
        self.source = source
        self.interrupt = interrupt
        self.remote = remote
        if case .file(let path) = source.location { try Self.checkLocalFile(path) }

        interrupt.setDeadline(seconds: Self.networkTimeout)
        defer { interrupt.setDeadline(seconds: nil) }

        // 1. The bytes.
        let whitelist = ProtocolPolicy.whitelist(for: source)
        let ioOptions = AVOptions(Self.protocolOptions(for: source, headers: headers))
        var interruptCB = interrupt.callback
        var pb: UnsafeMutablePointer<AVIOContext>? = nil
        let ioResult: Int32
        if let remote, let cached = try remote.openBytes(source) {
            pb = cached
            ioResult = 0
        } else {
            ioResult = avio_open2(&pb, source.ffmpegURL, AVIO_FLAG_READ, &interruptCB, &ioOptions.pointer)
        }
        guard ioResult >= 0, let pb else {
            if interrupt.timedOut { throw .networkError("no answer within \(Int(Self.networkTimeout)) s: \(source.displayName)") }
            throw ErrorMapping.openError(ioResult, source: source)
        }
        io = pb

        // 2. What format is it? Decided from the content (the name is only a tie-breaker).
        var format: UnsafePointer<AVInputFormat>? = nil
        var score = av_probe_input_buffer2(pb, &format, source.ffmpegURL, nil, 0, 0)
        if source.isRemote, score >= 0 || score == FFmpegError.invalidData,
           let dash = remote?.demuxer(io: pb, url: source.ffmpegURL, probed: format, score: score) {
            format = dash
            score = reel_probe_score_retry() + 1
        }
        guard score >= 0, format != nil else {
            let networkFailure = remote?.failure
            Self.closeIO(&io, remote: remote)
            if let networkFailure { throw networkFailure }
            if source.isRemote, score != FFmpegError.invalidData, score != FFmpegError.eof {
                throw ErrorMapping.openError(score, source: source)
            }
            throw Self.isEmpty(score) ? .notMediaFile("\(source.displayName) is empty")
                                      : .notMediaFile(source.displayName)
        }
        probeScore = score

        // 3. The container.
        guard let ctx = avformat_alloc_context() else { Self.closeIO(&io, remote: remote); throw .internalError("out of memory") }
        ctx.pointee.pb = pb
        ctx.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        ctx.pointee.interrupt_callback = interrupt.callback
        let formatOptions = AVOptions(["protocol_whitelist": whitelist])
        if let remote {
            remote.install(in: ctx)
            // HLS keeps segment connections open by reaching into FFmpeg's own http context,
            // which cached inputs do not have; and a kept-open connection would load the next
            // playlist past the checks.
            formatOptions.set("http_persistent", "0")
        }
        var ctxVar: UnsafeMutablePointer<AVFormatContext>? = ctx
        let demuxerURL: String
        do {
            (demuxerURL, ctx.pointee.pb) = try remote?.demuxerInput(source.ffmpegURL, format: format, io: pb)
                ?? (source.ffmpegURL, pb)
        } catch {
            avformat_free_context(ctx)
            Self.closeIO(&io, remote: remote)
            throw error
        }
        let openResult = avformat_open_input(&ctxVar, demuxerURL, format, &formatOptions.pointer)
        guard openResult >= 0, let opened = ctxVar else {
            // avformat_open_input frees the context on failure, but not custom I/O.
            let error = remote?.failure ?? Self.demuxError(openResult, score: score, source: source, interrupt: interrupt)
            Self.closeIO(&io, remote: remote)
            throw error
        }
        context = opened
        headerRead(opened.pointee.duration > 0 && opened.pointee.duration != reel_nopts_value()
                   ? Double(opened.pointee.duration) / Double(AV_TIME_BASE) : nil)

        let infoResult = avformat_find_stream_info(opened, nil)
        if infoResult < 0 {
            let error = remote?.failure ?? Self.demuxError(infoResult, score: score, source: source, interrupt: interrupt)
            close()
            throw error
        }
        // Every playlist refused or failed: nothing is left to play, and the refusal says why.
        if opened.pointee.nb_streams == 0, let problem = remote?.nestedProblem {
            close()
            throw problem
        }
        remote?.opened()
    }

    deinit { close() }

    package func close() {
        if context != nil { avformat_close_input(&context) }
        Self.closeIO(&io, remote: remote)
    }

    package var formatContext: UnsafeMutablePointer<AVFormatContext> { context! }

    package func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        formatContext.pointee.streams[index]!
    }

    package var streamCount: Int { Int(formatContext.pointee.nb_streams) }

    /// The container's start in seconds (0 when it gives none): its times count from here.
    package var startTime: Double {
        let start = formatContext.pointee.start_time
        return start == reel_nopts_value() ? 0 : Double(start) / Double(AV_TIME_BASE)
    }

    /// Reads the next packet into `packet`; returns 0, or a negative FFmpeg code (EOF, EAGAIN, ...).
    package func read(into packet: Packet) -> Int32 {
        av_read_frame(formatContext, packet.pointer)
    }

    /// After the demuxer said "try again" (EAGAIN) several times running: waits for the stream
    /// cache to bring more bytes (remote media through the cache). Other inputs give no signal
    /// to wait on (their IO blocks, so an EAGAIN from them is the demuxer's own "call again"):
    /// a genuine short pause, which only a demuxer saying it over and over ever reaches.
    package func waitForData() {
        if remote?.waitForData(interrupt: interrupt) != true { usleep(5_000) }
    }

    /// Tells the demuxer to skip every stream but these: their packets are not even read where
    /// the container allows it (less work, and less download for remote media).
    package func keepOnly(streams: Set<Int>) {
        for i in 0..<streamCount {
            stream(i).pointee.discard = streams.contains(i) ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    /// Seeks so that the next packets start at the key frame at or before `seconds`.
    package func seek(to seconds: Double) -> Int32 {
        if hasNoTimestamps {
            // A raw elementary stream (.h264, .hevc) has no times to seek by: back to the
            // start, where the decoders count frames from zero, so exact targets still land.
            let result = avformat_seek_file(formatContext, -1, 0, 0, 0, AVSEEK_FLAG_BYTE)
            if result >= 0 { return result }
            guard let pb = formatContext.pointee.pb else { return result }
            let moved = avio_seek(pb, 0, SEEK_SET)
            if moved < 0 { return Int32(truncatingIfNeeded: moved) }
            return avformat_flush(formatContext)
        }
        var ts = Int64((seconds * Double(AV_TIME_BASE)).rounded(.down))
        // MPEG-TS and -PS seek by searching the bytes for a decode timestamp, and a key frame's
        // decode time is before its picture's (B-frames): seeking to the picture's time lands
        // after the key frame's first packet, and the decoder then waits for the next one. Go
        // back as far as FFmpeg's own command line does (3/23 s), so a seek to the first
        // picture finds its key frame.
        if seeksByDecodeTimestamps { ts -= Int64(AV_TIME_BASE) * 3 / 23 }
        let result = avformat_seek_file(formatContext, -1, Int64.min, ts, ts, 0)
        if result >= 0 { return result }
        // Some demuxers only seek with the backward flag.
        return av_seek_frame(formatContext, -1, ts, AVSEEK_FLAG_BACKWARD)
    }

    /// The demuxer gives packets no timestamps: a raw elementary stream, whose parser makes
    /// frames up from the bytes (FFmpeg's raw video demuxers, which seek only by guessing).
    package var hasNoTimestamps: Bool {
        guard let format = formatContext.pointee.iformat else { return false }
        return Self.rawElementaryDemuxers.contains(String(cString: format.pointee.name))
    }

    /// FFmpeg's short name of the demuxer reading the input ("mpegts", "matroska,webm", ...).
    package var formatName: String {
        formatContext.pointee.iformat.map { String(cString: $0.pointee.name) } ?? ""
    }

    /// The demuxer finds seek positions by the packets' decode timestamps (no index).
    package var seeksByDecodeTimestamps: Bool { Self.decodeTimestampSeekingDemuxers.contains(formatName) }

    package static let decodeTimestampSeekingDemuxers: Set<String> = ["mpegts", "mpegtsraw", "mpeg"]

    package static let rawElementaryDemuxers: Set<String> = [
        "h264", "hevc", "vvc", "m4v", "mpegvideo", "cavsvideo", "h261", "h263", "vc1", "avs2", "avs3", "dirac",
    ]

    // MARK: - Helpers

    private static func protocolOptions(for source: MediaSource, headers: RequestHeaders) -> [String: String] {
        var options = ["protocol_whitelist": ProtocolPolicy.whitelist(for: source)]
        if source.isRemote {
            options["user_agent"] = headers.value(of: "User-Agent") ?? "Reel/\(ReelVersion.string)"
            // FFmpeg's HLS and DASH demuxers pass these on to the playlists and segments they open.
            if !headers.isEmpty { options["headers"] = headers.ffmpegOption }
            options["rw_timeout"] = String(Int(networkTimeout * 1_000_000))
        }
        return options
    }

    private static func checkLocalFile(_ path: String) throws(PlayerError) {
        var st = stat()
        if stat(path, &st) != 0 {
            switch errno {
            case EACCES: throw .permissionDenied(path)
            default: throw .fileNotFound(path)
            }
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw .notMediaFile("\(path) is a folder") }
        if access(path, R_OK) != 0 { throw .permissionDenied(path) }
        if (st.st_mode & S_IFMT) == S_IFREG && st.st_size == 0 {
            throw .notMediaFile("\((path as NSString).lastPathComponent) is empty")
        }
    }

    private static func isEmpty(_ code: Int32) -> Bool { code == FFmpegError.eof }

    private static func demuxError(_ code: Int32, score: Int32, source: MediaSource,
                                   interrupt: InterruptFlag) -> PlayerError {
        if interrupt.timedOut { return .networkError("no answer within \(Int(networkTimeout)) s: \(source.displayName)") }
        if interrupt.isAborted { return .networkError("cancelled: \(source.displayName)") }
        if code != FFmpegError.invalidData && code != FFmpegError.eof && source.isRemote {
            return ErrorMapping.openError(code, source: source)
        }
        // A format recognised only by a weak guess (or the file name) that then fails to open
        // was never media; a confidently recognised one that fails is damaged media.
        if score <= reel_probe_score_retry() {
            return .notMediaFile(source.displayName)
        }
        return .corruptData("\(source.displayName) cannot be read (\(FFmpegError.text(for: code)); truncated or damaged)")
    }

    private static func closeIO(_ io: inout UnsafeMutablePointer<AVIOContext>?, remote: (any RemoteOpening)?) {
        if remote?.close() == true {
            io = nil
        } else if io != nil {
            avio_closep(&io)
        }
    }
}
