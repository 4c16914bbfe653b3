/// Seeks, frame steps, scrubbing and landings as a plain state machine: the control loop hands
/// it what the person asked for, what the pipeline reported (a landing done, a picture
/// decoded, a picture arrived too late) and what is decoded (`DecodedPictures`, a value), and
/// carries out the `SeekAction`s it returns; deciding changes nothing but its own state. It merges
/// what arrives while a landing is under way (the latest seek wins, steps add up, a drag keeps
/// only its newest position) so that one landing runs at a time and every landing shows a picture.
/// Threading: a value owned by the control loop; it starts no thread and holds no session.
struct SeekCoordinator {
    /// Orders seek requests: every request that changes what is decoded gets a new one, so the
    /// queues, the sound FIFO and the presentation drop what an older request decoded. Bumped
    /// here only (a gapless follower's first request takes one too, `newSerial`); compared by
    /// the pipeline against the serial its frames carry and by the loop against reports.
    private(set) var serial = 0
    /// A seek asked for while the media loads: the media's first landing goes there.
    private(set) var pendingSeek: (target: Double, mode: SeekMode)?
    /// Forward steps asked for and not yet shown (a decoded picture serves each one).
    private(set) var pendingSteps = 0
    /// Back steps asked for while a landing was under way.
    private(set) var pendingBackSteps = 0
    /// The picture moved without the sound (a paused seek, step or scrub served from decoded
    /// pictures): the next play seeks exactly to bring the sound back in step.
    private(set) var audioStale = false
    /// A scrubber drag's newest position not yet asked for (one landing at a time, so every
    /// landing shows a picture and none is abandoned half-way).
    private(set) var pendingScrub: Double?

    /// A serial never handed out before.
    mutating func newSerial() -> Int {
        serial += 1
        return serial
    }

    /// Forgets everything asked for: the media closed or another item took over.
    mutating func reset() {
        pendingSeek = nil
        pendingSteps = 0
        pendingBackSteps = 0
        pendingScrub = nil
        audioStale = false
    }

    /// The first landing of media just loaded: where a seek asked during the loading goes,
    /// else its beginning without moving the demuxer.
    mutating func openingRequest(duration: Double?) -> SeekRequest {
        let serial = newSerial()
        audioStale = false
        defer { pendingSeek = nil }
        if let seek = pendingSeek {
            return SeekRequest(serial: serial, target: Self.clamp(seek.target, to: duration), mode: seek.mode,
                               movesDemuxer: true)
        }
        return SeekRequest(serial: serial, target: 0, mode: .keyframe, movesDemuxer: false)
    }

    // MARK: - What the person asks for

    /// Any move but a drag's ends the drag: a position it left waiting must not land afterwards.
    mutating func endDrag() {
        pendingScrub = nil
    }

    /// A seek; it ends any drag (a position the drag left waiting must not land afterwards).
    mutating func seek(to target: Double, mode: SeekMode, in context: SeekContext, picture: DecodedPictures?) -> [SeekAction] {
        endDrag()
        return seekFromState(to: target, mode: mode, context, picture)
    }

    /// The drag ends: the exact picture at the release position, whatever was under way.
    mutating func endScrub(at target: Double, in context: SeekContext, picture: DecodedPictures?) -> [SeekAction] {
        seek(to: target, mode: .exact, in: context, picture: picture)
    }

    /// A scrubber drag: the picture at the position when it is decoded or cheaply reached by
    /// decoding on, else the key frame at or before it. Positions that arrive during a landing
    /// wait, and only the newest is asked for when it is done (`landed`).
    mutating func scrub(to target: Double, in context: SeekContext, picture: DecodedPictures?) -> [SeekAction] {
        guard target.isFinite else { return [] }
        if context.landing {
            pendingScrub = target
            return []
        }
        pendingScrub = nil
        // Decoding on keeps what it passes, so a drag that turns back finds it decoded.
        if context.state == .ready, let actions = landWithinReach(target, fillsPast: true, context, picture) {
            return actions
        }
        // A press where the exact picture was decoded ahead (a click where the pointer
        // rested): that picture at once, and an exact landing on it, not the key frame's.
        if let prefetched = picture?.prefetched, Self.contains(prefetched, target) {
            return seekFromState(to: target, mode: .exact, context, picture)
        }
        return seekFromState(to: target, mode: .keyframe, context, picture)
    }

    /// One picture forward (the loop has paused and checked there is video).
    mutating func stepForward(in context: SeekContext, picture: DecodedPictures?) -> [SeekAction] {
        endDrag()
        pendingSteps += 1
        var picture = picture
        return context.landing ? [] : performSteps(context, &picture)
    }

    /// One picture back: from the decoded past when it is held (no decoding), else an exact
    /// seek into the previous frame's interval that keeps what it decodes on the way.
    mutating func stepBackward(in context: SeekContext, picture: DecodedPictures?) -> [SeekAction] {
        endDrag()
        pendingBackSteps += 1
        var picture = picture
        return context.landing ? [] : performBackSteps(context, &picture)
    }

    /// A seek the player makes itself (the sound brought back in step before playing, a new
    /// speed, another audio stream): like a person's seek, but a drag waiting stays waiting.
    mutating func reseek(to target: Double, mode: SeekMode, audioSwitch: AudioSwitch? = nil,
                         in context: SeekContext, picture: DecodedPictures?) -> [SeekAction] {
        begin(target, mode: mode, fillsPast: false, audioSwitch: audioSwitch, context, picture)
    }

    // MARK: - What the pipeline reports

    /// The first picture of `request` arrived at `pts` (NaN: the stream ended before any). A
    /// picture after the target, or none, although the demuxer could go further back, means
    /// the seek started too late (key frames indexed by decode time, undecodable leading
    /// frames): the same seek again from further back, under a new serial.
    mutating func pictureArrived(for request: SeekRequest, at pts: Double) -> SeekRequest? {
        guard request.movesDemuxer, request.demuxTarget > 0, request.attempt < 6,
              pts.isNaN || pts > request.target + 0.0005 else { return nil }
        audioStale = false
        return request.retried(serial: newSerial(), landedAt: pts.isNaN ? request.target : pts)
    }

    /// A landing is done: the steps and the drag position that waited for it go on.
    mutating func landed(in context: SeekContext, picture: DecodedPictures?) -> [SeekAction] {
        var context = context
        var picture = picture
        var actions: [SeekAction] = []
        if pendingSteps > 0 { actions += performSteps(context, &picture) }
        if pendingBackSteps > 0 {
            let more = performBackSteps(context, &picture)
            context.landing = more.contains { $0.startsLanding }
            actions += more
        }
        if let next = pendingScrub, !context.landing {
            pendingScrub = nil
            actions.append(.scrub(next))
        }
        return actions
    }

    /// Between messages, with nothing landing: steps waiting for a decoded picture take it.
    mutating func picturesMayHaveArrived(in context: SeekContext, picture: DecodedPictures?) -> [SeekAction] {
        guard pendingSteps > 0, !context.landing else { return [] }
        var picture = picture
        return performSteps(context, &picture)
    }

    // MARK: - Transitions

    /// A seek by the player's state: remembered while the media loads, refused when closed.
    private mutating func seekFromState(to target: Double, mode: SeekMode, _ context: SeekContext,
                                       _ picture: DecodedPictures?) -> [SeekAction] {
        guard target.isFinite else { return [] }
        var context = context
        switch context.state {
        case .loading where !context.hasSession:
            pendingSeek = (target, mode)   // the first landing, when loaded
            return []
        case .loading, .ready, .playing, .stalled:
            break
        case .ended:
            guard context.leaveEnd() else { return [] }
            context.state = .ready
        default:
            return []
        }
        return begin(target, mode: mode, fillsPast: false, audioSwitch: nil, context, picture)
    }

    private mutating func begin(_ target: Double, mode: SeekMode, fillsPast: Bool, audioSwitch: AudioSwitch?,
                                servedFromDecoded: Bool = true, _ context: SeekContext,
                                _ picture: DecodedPictures?) -> [SeekAction] {
        guard context.hasSession else { return [] }
        if !fillsPast && audioSwitch == nil {
            pendingBackSteps = 0
            if servedFromDecoded, mode == .exact,
               let actions = landWithinReach(target, fillsPast: false, context, picture) { return actions }
        }
        audioStale = false
        pendingSteps = 0
        var request = SeekRequest(serial: newSerial(), target: Self.clamp(target, to: context.duration), mode: mode,
                                  movesDemuxer: true)
        request.fillsPast = fillsPast
        request.audioSwitch = audioSwitch
        return [.seek(request)]
    }

    /// An exact seek served without moving the demuxer when that is possible and cheaper; nil
    /// when a normal seek has to be made. Paused only: the sound is left where it was and
    /// brought back by the exact seek that the next play makes (`audioStale`). `fillsPast`:
    /// decoding on keeps every picture on its way, so that moving back again lands on them.
    private mutating func landWithinReach(_ target: Double, fillsPast: Bool, _ context: SeekContext,
                                          _ picture: DecodedPictures?) -> [SeekAction]? {
        guard let picture, !context.landing, context.state == .ready, context.hasVideo else { return nil }
        let t = Self.clamp(target, to: context.duration)
        var request = SeekRequest(serial: serial + 1, target: t, mode: .exact, movesDemuxer: true)
        request.fillsPast = fillsPast
        switch picture.reach(request) {
        case .miss:
            return nil
        case .landed:
            pendingSteps = 0
            audioStale = context.hasAudio
            return [.showDecoded(request)]
        case .retargeted:
            serial += 1
            pendingSteps = 0
            audioStale = context.hasAudio
            return [.retarget(request)]
        }
    }

    /// A seek decided as served from decoded pictures could not be, when carried out (the
    /// decoder moved on meanwhile): the demuxer moves after all, as it would have had the
    /// pictures not been within reach (a drag's to the key frame, any other exactly).
    mutating func notWithinReach(_ request: SeekRequest, in context: SeekContext) -> [SeekAction] {
        audioStale = false
        var context = context
        context.landing = false
        return begin(request.target, mode: request.fillsPast ? .keyframe : .exact, fillsPast: false,
                     audioSwitch: nil, servedFromDecoded: false, context, nil)
    }

    private mutating func performSteps(_ context: SeekContext, _ picture: inout DecodedPictures?) -> [SeekAction] {
        guard context.hasVideo, picture != nil else { pendingSteps = 0; return [] }
        var actions: [SeekAction] = []
        while pendingSteps > 0, let pts = picture!.stepForward() {
            pendingSteps -= 1
            actions.append(.stepForward(pts))
        }
        // At the last frame there is nothing to step to.
        if pendingSteps > 0, picture!.decodedToEnd { pendingSteps = 0 }
        return actions
    }

    /// Each back step from the past while it lasts; when it runs out, one seek to the previous
    /// picture that keeps everything decoded on its way (the rest wait for its landing).
    private mutating func performBackSteps(_ context: SeekContext, _ picture: inout DecodedPictures?) -> [SeekAction] {
        var context = context
        var actions: [SeekAction] = []
        while pendingBackSteps > 0 && !context.landing {
            guard context.hasVideo, let shown = picture?.shown else { pendingBackSteps = 0; break }
            if context.state == .ended {
                guard context.leaveEnd() else { pendingBackSteps = 0; break }
                context.state = .ready
            }
            guard context.state == .ready else { pendingBackSteps = 0; break }
            pendingBackSteps -= 1
            if let pts = picture!.stepBack() {
                pendingSteps = 0
                audioStale = context.hasAudio
                actions.append(.stepBack(pts))
                continue
            }
            let frameDuration = shown.duration > 0 ? shown.duration : 1.0 / 30
            guard shown.pts > 0 else { pendingBackSteps = 0; break }
            let seek = begin(max(0, shown.pts - frameDuration / 2), mode: .exact, fillsPast: true, audioSwitch: nil,
                             context, picture)
            context.landing = seek.contains { $0.startsLanding }
            actions += seek
            if !context.landing { break }
        }
        return actions
    }

    /// Whether an exact seek to `target` lands on `picture` (comfortably inside its interval).
    static func contains(_ picture: DecodedPictures.Picture, _ target: Double) -> Bool {
        target >= picture.pts - 1e-6 && (picture.duration <= 0 || target < picture.pts + picture.duration - 1e-4)
    }

    static func clamp(_ target: Double, to duration: Double?) -> Double {
        var t = max(0, target)
        if let duration { t = min(t, duration) }
        return t
    }
}
