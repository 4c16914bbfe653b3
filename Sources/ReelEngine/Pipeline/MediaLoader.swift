import CFFmpeg
import Foundation

/// Opens and probes media off the control thread, so a slow server never blocks commands.
/// Threading: runs once on its own thread; `cancel` from any thread aborts its blocking I/O.
final class MediaLoader: @unchecked Sendable {
    /// What a successful load hands to the session. Owned by one thread at a time.
    final class Loaded: @unchecked Sendable {
        // Safe: built on the loader thread, then handed over whole to the control thread.
        let input: MediaInput
        let info: MediaInfo
        let videoDecoder: Decoder?
        let audioDecoder: Decoder?
        let warnings: [PlayerWarning]
        /// What was asked to be opened (a web page, where `input` is the video found on it).
        let requested: MediaSource
        /// The sound file played in place of the media's sound, opened (`ExternalAudio`).
        let audioInput: MediaInput?

        init(input: MediaInput, info: MediaInfo, videoDecoder: Decoder?, audioDecoder: Decoder?, warnings: [PlayerWarning],
             requested: MediaSource, audioInput: MediaInput? = nil) {
            self.input = input
            self.info = info
            self.videoDecoder = videoDecoder
            self.audioDecoder = audioDecoder
            self.warnings = warnings
            self.requested = requested
            self.audioInput = audioInput
        }
    }

    let interrupt = InterruptFlag()
    private var thread: EngineThread?
    /// yt-dlp asked beside FFmpeg's first look (`PageLookahead`), joined with the loader.
    private let lookahead = Locked<PageLookahead?>(nil)

    func start(source: MediaSource, configuration: PlayerConfiguration,
               durationKnown: @escaping @Sendable (Double) -> Void,
               cacheEvent: @escaping @Sendable (PlayerEvent) -> Void = { _ in },
               completion: @escaping @Sendable (Result<Loaded, PlayerError>) -> Void) {
        let interrupt = self.interrupt
        let lookahead = self.lookahead
        thread = EngineThread(name: "reel.load") {
            completion(Result { () throws(PlayerError) in
                try Self.load(source: source, configuration: configuration, interrupt: interrupt,
                              durationKnown: durationKnown, cacheEvent: cacheEvent) { asked in lookahead.withLock { $0 = asked } }
            })
        }
    }

    func cancel() { interrupt.abort() }

    func join() {
        thread?.join()
        thread = nil
        lookahead.current?.join()
    }

    private static func load(source: MediaSource, configuration: PlayerConfiguration, interrupt: InterruptFlag,
                             durationKnown: @Sendable (Double) -> Void,
                             cacheEvent: @escaping @Sendable (PlayerEvent) -> Void,
                             asking: (PageLookahead) -> Void) throws(PlayerError) -> Loaded {
        func open(_ source: MediaSource, announces: Bool = true, headers: RequestHeaders = RequestHeaders()) throws(PlayerError) -> MediaInput {
            var options = configuration.streamCacheProvider?() ?? configuration.streamCache
            if !headers.isEmpty { options.requestHeaders = headers }
            return try MediaInput.opening(source, options: options, interrupt: interrupt, events: cacheEvent) { duration in
                if announces, let duration { durationKnown(duration) }
            }
        }
        // An address that is not media may be a web page with a video on it: yt-dlp finds it
        // (FFmpeg first, as mpv does for addresses that look like media, so that plain media
        // never waits for yt-dlp).
        var page: WebPage?
        var pageVideo: PageFormat?
        var external = configuration.externalAudio
        var externalHeaders = RequestHeaders()
        let input: MediaInput
        var lookahead: PageLookahead?
        if case .remote(let address) = source.location, PageLookahead.mayBePage(address) {
            let asked = PageLookahead(address: address, options: configuration.webPages, parent: interrupt)
            asking(asked)
            lookahead = asked
        }
        do throws(PlayerError) {
            input = try open(source)
            lookahead?.drop()
        } catch {
            guard case .notMediaFile = error, case .remote(let address) = source.location else {
                lookahead?.drop()
                throw error
            }
            let found: PageLookahead.Found
            if let lookahead { found = try lookahead.take() } else {
                found = try PageResolver.resolve(address, options: configuration.webPages, interrupt: interrupt,
                                                 decodes: FormatChoice.decodable)
            }
            page = found.page
            pageVideo = found.video
            input = try open(try MediaSource(parsing: found.video.playedURL), headers: found.video.headers)
            // Picture and sound apart: the sound plays as a sound file of its own.
            if external == nil, let audio = found.audio {
                external = try MediaSource(parsing: audio.playedURL)
                externalHeaders = audio.headers
            }
        }
        var info = MediaProbe.info(of: input)
        if let page {
            info.webPage = page.address
            // The page's title is the one people know the video by (a file's tag is often an
            // encoder's leftover), as mpv shows yt-dlp's.
            info.title = page.title ?? info.title
            if info.chapters.isEmpty { info.chapters = page.chapters }
            info.webFormats = FormatChoice.qualities(page.formats, decodes: FormatChoice.decodable).map {
                WebFormatChoice(id: $0.id, height: $0.height, note: $0.label)
            }
            info.webFormat = pageVideo?.id
            if page.entries.count > 1 { info.webPageEntries = page.entries }
            // A DASH manifest holds every quality: the one chosen is its picture of that height.
            if let format = pageVideo, format.isDash, let height = format.height,
               let stream = info.streams.first(where: { $0.kind == .video && !$0.isAttachedPicture && $0.height == height }) {
                info.selectedVideoStream = stream.index
            }
        }
        var warnings: [PlayerWarning] = []
        if !configuration.playsVideo { info.selectedVideoStream = nil }
        if let wanted = configuration.audioStream ?? AudioChoice.byLanguage(info, configuration.audioLanguages),
           info.streams.contains(where: { $0.index == wanted && $0.kind == .audio }) {
            info.selectedAudioStream = wanted
        }
        var audioInput: MediaInput?
        if let external, configuration.playsAudio {
            do throws(PlayerError) {
                let opened = try Self.openExternalAudio(external, into: &info, wanted: configuration.audioStream) {
                    source throws(PlayerError) in try open(source, announces: false, headers: externalHeaders)
                }
                audioInput = opened
            } catch {
                warnings.append(.audioFileFailed(name: external.displayName, reason: error.detail))
            }
        }
        if !configuration.playsAudio { info.selectedAudioStream = nil }

        var video: Decoder?
        var audio: Decoder?
        // A stream whose decoder refused to open is named once, by what refused it.
        var refusedVideo: Int?
        if let index = info.selectedVideoStream {
            do { video = try Decoder(stream: input.stream(index), threads: configuration.decoderThreads) } catch {
                warnings.append(.videoDecoderFailed(stream: index, codec: info.stream(at: index)?.codec ?? "unknown", reason: error.detail))
                info.selectedVideoStream = nil
                refusedVideo = index
            }
        }
        if let index = info.selectedAudioStream {
            let stream = ExternalAudio.isExternal(index) && audioInput != nil
                ? audioInput!.stream(index - ExternalAudio.base) : input.stream(index)
            do { audio = try Decoder(stream: stream, threads: 1) } catch {
                warnings.append(.audioDecoderFailed(stream: index, codec: info.stream(at: index)?.codec ?? "unknown", reason: error.detail))
                info.selectedAudioStream = nil
            }
        }
        if video == nil && audio == nil {
            // Only the kinds this player was asked to play count: a frame grabber that plays no
            // audio finds "no video" in a song, not an unsupported codec.
            let wanted = info.streams.filter {
                ($0.kind == .video && !$0.isAttachedPicture && configuration.playsVideo)
                    || ($0.kind == .audio && configuration.playsAudio)
            }
            if !wanted.isEmpty {
                throw .unsupportedCodec(wanted.map { "\($0.codec) (\($0.kind.rawValue))" }.joined(separator: ", "))
            }
            if input.probeScore <= reel_probe_score_retry() { throw .notMediaFile(source.displayName) }
            let missing = configuration.playsAudio ? (configuration.playsVideo ? "audio or video" : "audio") : "video"
            throw .noPlayableStream("\(source.displayName) has no \(missing)")
        }
        for s in info.streams where s.kind == .video && !s.isAttachedPicture && s.index != refusedVideo
            && info.selectedVideoStream == nil && configuration.playsVideo {
            warnings.append(.videoCodecUnsupported(stream: s.index, codec: s.codec))
        }
        if video != nil, let index = info.selectedVideoStream,
           let warning = info.stream(at: index)?.dolbyVision?.warning(stream: index) {
            warnings.append(warning)
        }
        return Loaded(input: input, info: info, videoDecoder: video, audioDecoder: audio, warnings: warnings,
                      requested: source, audioInput: audioInput)
    }

    /// Opens the sound file and lists its sound stream among the media's (`ExternalAudio`),
    /// chosen unless one of the media's own streams was asked for.
    private static func openExternalAudio(_ source: MediaSource, into info: inout MediaInfo, wanted: Int?,
                                          open: (MediaSource) throws(PlayerError) -> MediaInput) throws(PlayerError) -> MediaInput {
        let input = try open(source)
        let found = MediaProbe.info(of: input)
        guard let index = found.selectedAudioStream, var stream = found.stream(at: index) else {
            input.close()
            throw .noPlayableStream("\(source.displayName) has no sound")
        }
        stream.index = ExternalAudio.base + index
        if stream.title?.isEmpty ?? true { stream.title = found.title ?? source.displayName }
        info.streams.append(stream)
        if wanted.map(ExternalAudio.isExternal) ?? true { info.selectedAudioStream = stream.index }
        return input
    }
}
