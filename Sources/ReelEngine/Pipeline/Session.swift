import CFFmpeg
import Foundation

/// One opened media's running pipeline: demux thread, decoder threads, queues, the sound output
/// it borrows from the player, clock and presentation. Created, commanded and shut down by the control thread; its parts
/// run on their own threads and report back through `post`.
/// Threading: the methods are called from the control thread; the read-only parts
/// (`clock`, `presentation`) are used from the presenting thread too.
final class Session: @unchecked Sendable {
    enum Report {
        case videoArrived(serial: Int, pts: Double)
        case audioReady(serial: Int)
        case demuxEnded(serial: Int, error: PlayerError?)
        case frameShown(VideoFrame, drift: Double?, first: Bool)
        /// Remote media: a subtitle track with what has been read of it so far.
        case subtitlesRead(DecodedSubtitles)
        /// A picture or sound was decoded, once after `reportNextDecode` (see `DecodeProgress`).
        case decoded
        /// The video or audio decoder delivered its last picture or sound for its serial.
        case decoderEnded
        /// Deinterlacing started, stopped or changed mode (told once per change).
        case deinterlacing(DeinterlaceStatus)
    }

    // Safe: immutable after init except through the control thread.
    /// What was probed, with the audio stream playing now (`switchAudio` changes it).
    private(set) var info: MediaInfo
    let input: MediaInput
    /// What was asked to be opened (a web page, where `input` is its video): what a reopening opens.
    let requested: MediaSource
    /// The sound file played in place of the media's sound (`ExternalAudio`), read by a demuxer
    /// of its own.
    private let audioInput: MediaInput?
    private let audioDemuxer: Demuxer?
    private let audioWakeup = Wakeup()
    /// The two demuxers' ends, reported as one when both came for a serial.
    private let ends: Locked<DemuxEnds>
    let clock: PlaybackClock
    let presentation: Presentation?
    let frameQueue: VideoFrameQueue?
    let fifo: AudioFifo?
    /// The player's sound output (`SoundDevice`), lent to this session while it reads `fifo`:
    /// only then does the session start, pause or flush it, and it never closes it.
    let output: AudioOutput?
    let audioWarning: PlayerWarning?
    private let wakeup = Wakeup()
    private let progress: DecodeProgress
    private let videoPackets: PacketQueue?
    private let audioPackets: PacketQueue?
    private let demuxer: Demuxer
    private let videoWorker: VideoDecodeWorker?
    /// The video's key frames from the container's index (nil without one): decides whether a
    /// seek ahead is cheaper as more decoding or as a demuxer seek.
    private let keyFrames: KeyFrameIndex?
    private let videoTimeBase: Double
    /// The deinterlacing mode the video decoder takes up at its next flush.
    private let deinterlaceMode: Locked<DeinterlaceMode>
    /// The decoder makes field pictures now, or the stream says it will (`auto`, fields ordered).
    private let fieldsLikely: Locked<Bool>
    /// One frame of the stream in seconds (0 when unknown).
    private let frameSeconds: Double
    private let deinterlaceStatus: Locked<DeinterlaceStatus?>
    private let audioWorker: AudioDecodeWorker?
    /// Remote media's subtitle streams, decoded as the demuxer reads them (nil for local media,
    /// whose subtitles are read whole in a pass of their own).
    let streamingSubtitles: StreamingSubtitles?
    private var isShutDown = false

    /// `lendsOutput` false: this session is prepared to follow the current one gaplessly while
    /// that one borrows the output; its sound is decoded in the output's format (to be chained
    /// into the same stream) and it borrows the output when it takes over.
    init(loaded: MediaLoader.Loaded, configuration: PlayerConfiguration, device: SoundDevice, lendsOutput: Bool = true,
         report: @escaping @Sendable (Report) -> Void) {
        info = loaded.info
        input = loaded.input
        requested = loaded.requested
        audioInput = loaded.audioInput
        let ends = Locked(DemuxEnds(sources: loaded.audioInput == nil ? 1 : 2))
        self.ends = ends
        clock = PlaybackClock(pacing: configuration.makePacing())
        let deinterlaceMode = Locked(configuration.deinterlace)
        self.deinterlaceMode = deinterlaceMode
        let fieldsLikely = Locked(false)
        self.fieldsLikely = fieldsLikely
        let statusNow = Locked<DeinterlaceStatus?>(nil)
        deinterlaceStatus = statusNow
        let progress = DecodeProgress { ended in report(ended ? .decoderEnded : .decoded) }
        self.progress = progress
        var routes: [Demuxer.Route] = []

        if let decoder = loaded.videoDecoder, let index = info.selectedVideoStream {
            let stream = input.stream(index)
            let packets = PacketQueue(consumed: wakeup)
            let timing = Self.videoTiming(stream, origin: info.startTime)
            let interlaced = Self.fieldsOrdered(stream)
            fieldsLikely.withLock { $0 = configuration.deinterlace == .on || (configuration.deinterlace == .auto && interlaced) }
            // Fields come twice as often: the same time ahead takes twice the pictures.
            let fieldFactor = configuration.deinterlace != .off && (interlaced || configuration.deinterlace == .on) ? 2 : 1
            let queue = VideoFrameQueue(capacity: Self.queueCapacity(stream, configuration) * fieldFactor,
                                        clockReaches: { [clock] in clock.hostTime(reaching: $0) },
                                        progress: progress) { serial, pts in
                report(.videoArrived(serial: serial, pts: pts))
            }
            videoPackets = packets
            frameQueue = queue
            let deinterlacer = Deinterlacer(mode: deinterlaceMode, timeBase: timing.timeBase, startPts: timing.startPts,
                                            frameDuration: timing.frameDuration, likelyInterlaced: interlaced) { status in
                fieldsLikely.withLock { $0 = status.isActive || (status.mode == .auto && interlaced) }
                statusNow.withLock { $0 = status }
                report(.deinterlacing(status))
            }
            let worker = VideoDecodeWorker(decoder: decoder, packets: packets, frames: queue, timing: timing,
                                           deinterlacer: deinterlacer, streamHDR: HDRMetadata(stream: stream))
            videoWorker = worker
            presentation = Presentation(queue: queue, steering: worker.steering, clock: clock) { frame, drift, first in
                report(.frameShown(frame, drift: drift, first: first))
            }
            routes.append(.init(streamIndex: index, queue: packets, timeBase: av_q2d(stream.pointee.time_base)))
            keyFrames = KeyFrameIndex(input: input, stream: index)
            videoTimeBase = av_q2d(stream.pointee.time_base)
            frameSeconds = Double(timing.frameDuration) * videoTimeBase
        } else {
            videoPackets = nil; frameQueue = nil; presentation = nil; videoWorker = nil
            keyFrames = nil; videoTimeBase = 0; frameSeconds = 0
        }

        var audioRoute: Demuxer.Route?
        if let decoder = loaded.audioDecoder, let index = info.selectedAudioStream {
            let external = ExternalAudio.isExternal(index) ? loaded.audioInput : nil
            let streamIndex = external == nil ? index : index - ExternalAudio.base
            let stream = (external ?? input).stream(streamIndex)
            let packets = PacketQueue(consumed: external == nil ? wakeup : audioWakeup)
            let mediaChannels = max(1, Int(stream.pointee.codecpar.pointee.ch_layout.nb_channels))
            let mediaRate = max(8000, Int(stream.pointee.codecpar.pointee.sample_rate))
            let loan = device.lend(mediaChannels: mediaChannels, mediaRate: mediaRate, name: loaded.info.displayTitle,
                                   clock: clock, lendsNow: lendsOutput) { format in
                AudioFifo(format: format, progress: progress) { serial in report(.audioReady(serial: serial)) }
            }
            let (fifo, output) = (loan.fifo, loan.output)
            audioWarning = loan.warning
            audioPackets = packets
            self.fifo = fifo
            self.output = output
            clock.follow(output)
            audioWorker = AudioDecodeWorker(decoder: decoder, packets: packets, fifo: fifo,
                                            timeBase: stream.pointee.time_base,
                                            origin: external?.startTime ?? info.startTime)
            let route = Demuxer.Route(streamIndex: streamIndex, queue: packets, timeBase: av_q2d(stream.pointee.time_base), isAudio: true)
            if external == nil { routes.append(route) } else { audioRoute = route }
        } else {
            audioPackets = nil; fifo = nil; output = nil; audioWorker = nil; audioWarning = nil
        }

        streamingSubtitles = input.source.isRemote
            ? StreamingSubtitles(input: input, info: info) { report(.subtitlesRead($0)) } : nil
        let side = streamingSubtitles.map { subtitles in
            Demuxer.SidePackets(streams: subtitles.streams) { subtitles.take($0) }
        }
        let post: @Sendable (Demuxer.Event) -> Void = { event in
            switch event {
            case .ended(let serial, let error):
                if let joined = ends.withLock({ $0.ended(serial: serial, error: error) }) {
                    report(.demuxEnded(serial: serial, error: joined.error))
                }
            }
        }
        demuxer = Demuxer(input: input, routes: routes, side: side, wakeup: wakeup, origin: info.startTime, post: post)
        // The sound file's times count from its own start, as the media's from its own.
        if let route = audioRoute, let file = loaded.audioInput {
            audioDemuxer = Demuxer(input: file, routes: [route], wakeup: audioWakeup, origin: file.startTime, post: post)
        } else {
            audioDemuxer = nil
        }
    }

    /// The sound file played in place of the media's sound, when one is.
    var externalAudio: MediaSource? { audioDemuxer == nil ? nil : audioInput?.source }

    /// Takes effect for the clock at once and for the sound at the next seek (see PlayerCore).
    func setSpeed(_ speed: Double) {
        audioWorker?.speed.withLock { $0 = speed }
        clock.setSpeed(speed)
    }

    /// Taken up by the audio decoder at its next frame, with a cross-fade (`LoudnessLevelling`).
    func setLevelling(_ on: Bool) { audioWorker?.levelling.withLock { $0 = on } }

    var hasVideo: Bool { presentation != nil }
    var hasAudio: Bool { fifo != nil }

    func start(initial: SeekRequest) {
        prepare(for: initial)
        videoWorker?.start()
        audioWorker?.start()
        demuxer.start(initial: reachingBack(initial))
        audioDemuxer?.start(initial: forSound(initial))
    }

    /// The sound file's demuxer goes to the target itself: it holds no picture to reach back
    /// for (as `reachingBack` does for deinterlacing), and a retry's earlier target stays.
    private func forSound(_ request: SeekRequest) -> SeekRequest {
        var sound = SeekRequest(serial: request.serial, target: request.target, mode: request.mode,
                                movesDemuxer: request.movesDemuxer)
        sound.demuxTarget = min(request.target, request.demuxTarget)
        return sound
    }

    /// Latest wins: the queues are emptied now, the demuxer moves when it next looks.
    func seek(_ request: SeekRequest) {
        prepare(for: request)
        demuxer.requestSeek(reachingBack(request))
        audioDemuxer?.requestSeek(forSound(request))
    }

    /// While deinterlacing, the demuxer goes back one frame more: bwdif needs the frame before
    /// the target's, which lies before the key frame when the target's frame is one.
    private func reachingBack(_ request: SeekRequest) -> SeekRequest {
        guard request.mode == .exact, fieldsLikely.current, frameSeconds > 0 else { return request }
        var request = request
        request.demuxTarget = max(0, request.demuxTarget - frameSeconds)
        return request
    }

    /// What the video decoder does to interlaced pictures (nil before its first flush).
    var deinterlacing: DeinterlaceStatus? { deinterlaceStatus.current }

    /// Takes effect at the next flush: the caller seeks exactly to the picture on screen, so
    /// pictures of the two rates never mix in the queue or the tape.
    func setDeinterlace(_ mode: DeinterlaceMode) {
        deinterlaceMode.withLock { $0 = mode }
        if mode != .auto { fieldsLikely.withLock { $0 = mode == .on } }
    }

    /// How an exact seek could be served with no demuxer seek (it only looks): the picture is
    /// already decoded (`.landed`), or the decoder can go on to it more cheaply than from a key
    /// frame (`.retargeted`).
    func reach(_ request: SeekRequest) -> WithinReach {
        guard request.mode == .exact, let presentation else { return .miss }
        return presentation.reach(request) { decodedEnd in decodingOnIsCheaper(from: decodedEnd, to: request.target) }
    }

    /// Serves an exact seek as `reach` finds it now: the decoded picture on screen now
    /// (`.landed`), or, when `retargets`, the decoder steered on towards it (`.retargeted`: a
    /// landing follows under `request.serial`); `.miss` when neither can be done any more. The
    /// sound is left alone: the caller resynchronises it before playing.
    func serve(_ request: SeekRequest, retargets: Bool) -> WithinReach {
        guard request.mode == .exact, let presentation else { return .miss }
        let result = presentation.serve(request, retargets: retargets) { decodedEnd in
            self.decodingOnIsCheaper(from: decodedEnd, to: request.target)
        }
        if result == .retargeted { clock.set(request.target) }
        return result
    }

    /// Decoding on from `end` beats a seek when no key frame lies between (a seek would start
    /// from the key frame before the target, at or before `end`). Without an index of the
    /// whole stream, only a short way ahead (half a second) is taken as within reach: an index
    /// of what has been read so far (Matroska whose cues are not loaded yet, as over a network)
    /// knows nothing of key frames further on, and decoding on would read everything between.
    private func decodingOnIsCheaper(from end: Double, to target: Double) -> Bool {
        guard let keyFrames, videoTimeBase > 0, let duration = info.duration,
              keyFrames.covers(end: Int64(((duration + info.startTime) / videoTimeBase).rounded(.down)))
        else { return target - end <= 0.5 }
        let units = Int64(((target + info.startTime) / videoTimeBase).rounded(.down))
        guard let key = keyFrames.presentation(atOrBefore: units) else { return true }
        let keySeconds = Double(key) * videoTimeBase - info.startTime
        return keySeconds <= end + 1e-3
    }

    /// Plays another audio stream from `request` on (an exact seek to the picture on screen):
    /// the demuxer routes the new stream to the audio decoder, which takes up the new codec at
    /// the flush. The picture, the queues' other streams and the sound device stay.
    func switchAudio(_ request: SeekRequest) {
        guard let change = request.audioSwitch, hasAudio else { return }
        info.selectedAudioStream = change.streamIndex
        seek(request)
    }

    /// The next picture or sound decoded (or the end of either) is reported once, as
    /// `.decoded`: the control loop waits for it instead of looking again and again.
    func reportNextDecode() { progress.arm() }

    /// The clock was started: a full picture queue looks again at how late its pictures are.
    func clockStarted() { frameQueue?.clockStarted() }

    /// How much of the shown past is kept for back steps (a GOP while paused, little playing).
    func setPastLimit(_ limit: FrameTape.Limit) { frameQueue?.setPastLimit(limit) }

    /// Whether this session is the output's borrower (the one it reads from).
    private var borrowsOutput: Bool {
        guard let fifo, let output else { return false }
        return output.isReading(fifo)
    }

    private func prepare(for request: SeekRequest) {
        clock.set(request.target)
        if borrowsOutput {
            output?.pause()
            output?.flush()
        }
        frameQueue?.reset(serial: request.serial)
        fifo?.reset(serial: request.serial)
        presentation?.awaitLanding()
    }

    /// Stops every thread and frees the media; the session is unusable afterwards.
    func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        // Paused (fading out), not closed: the output stays the player's, for the next session.
        if borrowsOutput { output?.pause() }
        videoPackets?.abort()
        audioPackets?.abort()
        frameQueue?.abort()
        fifo?.abort()
        demuxer.stop()
        audioDemuxer?.stop()
        videoWorker?.join()
        audioWorker?.join()
        clock.follow(nil)
        input.close()
        audioInput?.close()
    }

    var videoPacketsEmpty: Bool { videoPackets?.isEmpty ?? true }
    var audioPacketsEmpty: Bool { audioPackets?.isEmpty ?? true }

    var statistics: PlaybackStatistics {
        let presented = presentation?.statisticsSnapshot ?? PresentationStatistics()
        return PlaybackStatistics(
            framesShown: presented.shown,
            framesDropped: presented.dropped + (frameQueue?.droppedUnwatched ?? 0),
            framesDecoded: videoWorker?.decodedFrames.current ?? 0,
            audioSamplesDecoded: audioWorker?.decodedSamples.current ?? 0,
            decodeErrors: (videoWorker?.decodeErrors.current ?? 0) + (audioWorker?.decodeErrors.current ?? 0)
                + demuxer.readErrors.current + (audioDemuxer?.readErrors.current ?? 0),
            driftP95Milliseconds: presented.driftPercentile(95),
            driftMaxMilliseconds: presented.driftMax,
            audioUnderruns: output?.underruns ?? 0,
            audioOutput: output?.kind,
            audioFormat: output?.format)
    }
}
