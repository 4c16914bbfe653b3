import Foundation

/// The exact picture at a time, decoded ahead of a seek there (`Player.prefetchPicture`): the
/// window asks for it when the pointer rests on the scrubber, so that a click there shows the
/// picture at once instead of after an exact seek's decoding. A second, silent session of the
/// same file lands an exact seek at the time, with its threads at a low priority and one
/// decoding thread, so it never competes with playback; the picture it lands on is the one the
/// playing session's own exact seek will land on (the same decoder and the same landing rule).
/// Threading: a value held and used by the control loop only.
struct PicturePrefetch: ~Copyable {
    /// The nice value of the prefetching threads (the hover previews' too).
    static let niceness: Int32 = 10

    /// The session of the same file (nil until a first request), and its generation and file.
    var slot: MediaSlot?
    private(set) var generation: Int?
    private(set) var source: MediaSource?
    /// The exact seek the slot's session is landing, and the time it was asked for.
    var request: SeekRequest?
    /// The picture landed, and the time asked for.
    var ready: (target: Double, frame: VideoFrame)?
    /// Serials for the slot's own requests (its frames are relabelled when they are shown).
    var serial = 0
    /// Opening the file a second time failed: no more tries for it.
    var failedSource: MediaSource?
    /// Clicks served by a prefetched picture (statistics).
    var served = 0

    /// The slot now holds a session-to-be for `source` under `generation`.
    mutating func opened(generation: Int, source: MediaSource) {
        self.generation = generation
        self.source = source
    }

    /// Whether the prefetched picture is the one an exact seek to `target` lands on: the
    /// time asked for, or a time well inside the picture's interval.
    func covers(_ target: Double) -> Bool {
        guard let ready else { return false }
        if abs(ready.target - target) < 1e-9 { return true }
        let frame = ready.frame
        return frame.duration > 0 && target > frame.pts + 1e-4 && target < frame.pts + frame.duration - 1e-4
    }

    mutating func close() {
        slot?.close()
        slot = nil
        (generation, source) = (nil, nil)
        request = nil
        ready = nil
    }
}

/// The control loop's side of prefetching.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {
    /// Decodes the exact picture at `target` ahead. nil: the pointer moved on, and a landing
    /// under way is cut short (its session lands on the key frame instead, a picture's work);
    /// the session is kept for the next rest, opening the file again costing more.
    /// Only files: a second reader of a stream would fetch it twice.
    func prefetchPicture(at target: Double?) {
        guard let target, target.isFinite, let session, session.hasVideo, state.hasMedia,
              case .file = session.input.source.location, prefetch.failedSource != session.input.source else {
            if let landing = prefetch.request.take() {
                prefetch.serial += 1
                prefetch.slot?.session?.seek(SeekRequest(serial: prefetch.serial, target: landing.target, mode: .keyframe,
                                                         movesDemuxer: true))
            }
            return
        }
        if prefetch.source == session.input.source && prefetch.covers(target) { return }
        let clamped = SeekCoordinator.clamp(target, to: session.info.duration)
        if prefetch.source != session.input.source {
            prefetch.close()
            var slot = MediaSlot(generation: newGeneration(), source: session.input.source)
            var configuration = self.configuration
            configuration.playsAudio = false
            configuration.decoderThreads = 1
            configuration.videoQueueCapacity = 2
            configuration.observesEveryFrame = false
            slot.loader = EngineThread.startingNiced(PicturePrefetch.niceness) {
                startLoading(session.input.source, generation: slot.generation, configuration: configuration,
                             announcesDuration: false)
            }
            let generation = slot.generation
            prefetch.slot = consume slot
            prefetch.opened(generation: generation, source: session.input.source)
        }
        prefetch.ready = nil
        snapshot.withLock { $0.prefetched = nil }
        prefetch.serial += 1
        let request = SeekRequest(serial: prefetch.serial, target: clamped, mode: .exact, movesDemuxer: true)
        prefetch.request = request
        prefetch.slot?.session?.seek(request)
    }

    /// A report about the prefetching session.
    func handleForPrefetch(_ message: ControlMessage) {
        switch message {
        case .loaded(let loaded, _):
            guard prefetch.slot != nil else { loaded.input.close(); return }
            prefetch.slot!.finishLoading()
            // Forgotten while the file opened: its first pictures, until the next request.
            let request = prefetch.request ?? {
                prefetch.serial += 1
                return SeekRequest(serial: prefetch.serial, target: 0, mode: .keyframe, movesDemuxer: false)
            }()
            var configuration = self.configuration
            configuration.playsAudio = false
            let session = makeSession(loaded, generation: prefetch.generation ?? -1, configuration: configuration,
                                      lendsOutput: false)
            prefetch.slot!.attach(session)
            EngineThread.startingNiced(PicturePrefetch.niceness) { session.start(initial: request) }
        case .loadFailed:
            prefetch.failedSource = prefetch.source
            prefetch.close()
        case .session(.videoArrived(let serial, let pts), _):
            guard let request = prefetch.request, request.serial == serial, !pts.isNaN,
                  let frame = prefetch.slot?.session?.presentation?.land() else { return }
            prefetch.request = nil
            // A landing after the time asked for (a seek that started too late) is no picture
            // the playing session lands on.
            let holds = frame.pts <= request.target + 1e-6
                && (frame.duration <= 0 || request.target < frame.pts + frame.duration + 1e-6)
            prefetch.ready = holds ? (request.target, frame) : nil
            let ready = prefetch.ready?.target
            snapshot.withLock { $0.prefetched = ready }
            if let ready { emit(.pictureDecodedAhead(at: ready)) }
        default:
            break
        }
    }

    /// An exact seek or retarget of the playing session was started: when its picture was
    /// decoded ahead, it goes on screen now, while the session decodes the same picture and
    /// lands on it.
    func showPrefetched(for request: SeekRequest, in session: Session) {
        guard request.mode == .exact, request.audioSwitch == nil,
              prefetch.source == session.input.source, prefetch.covers(request.target),
              let frame = prefetch.ready?.frame, let presentation = session.presentation else { return }
        // A click's release lands where its press did: the picture is on screen already.
        let alreadyShown = presentation.currentFrame.map { abs($0.pts - frame.pts) < 1e-9 } ?? false
        presentation.showAhead(frame.relabeled(serial: request.serial))
        guard !alreadyShown else { return }
        prefetch.served += 1
        let served = prefetch.served
        snapshot.withLock { $0.prefetchesServed = served }
        emit(.displayInvalidated)
    }

    /// The prefetched picture's interval, when it is the playing media's.
    var prefetchedPicture: DecodedPictures.Picture? {
        guard let ready = prefetch.ready, prefetch.source == session?.input.source else { return nil }
        return (ready.frame.pts, ready.frame.duration)
    }

    func closePrefetch() {
        prefetch.close()
        snapshot.withLock { $0.prefetched = nil }
    }
}
