/// What is decoded around the picture on screen, as the seek coordinator sees it when it
/// decides: plain values it plans on (a step in its plan moves a picture from `ahead` to the
/// screen), and a question that only looks, for exact seeks. The session makes one for each
/// decision (`Session.decodedPictures`); tests write them by hand. Nothing here changes the
/// pipeline: the control loop carries out what the coordinator decided (`carryOut`).
/// Threading: a value made and used on the control thread.
struct DecodedPictures {
    typealias Picture = (pts: Double, duration: Double)

    /// The picture on screen.
    var shown: Picture?
    /// Decoded pictures waiting, nearest first.
    var ahead: [Picture] = []
    /// Pictures held behind the one on screen (for back steps), nearest first.
    var behind: [Picture] = []
    /// A picture decoded ahead by another session (`PicturePrefetch`): an exact seek into it
    /// shows it at once.
    var prefetched: Picture?
    /// The decoder met the end: no picture follows `ahead`.
    var decoderEnded = false
    /// How an exact seek to a request could be served without the demuxer; it only looks
    /// (`Session.serve` serves it).
    var reach: (SeekRequest) -> WithinReach = { _ in .miss }

    /// Every decoded picture has been shown: a step forward has nowhere to go.
    var decodedToEnd: Bool { decoderEnded && ahead.isEmpty }

    /// In the plan: the next decoded picture is on screen; its time, or nil when none is decoded.
    mutating func stepForward() -> Double? {
        guard !ahead.isEmpty else { return nil }
        if let shown { behind.insert(shown, at: 0) }
        shown = ahead.removeFirst()
        return shown?.pts
    }

    /// In the plan: the picture before the one on screen is on screen; its time, or nil when
    /// none is held.
    mutating func stepBack() -> Double? {
        guard !behind.isEmpty else { return nil }
        if let shown { ahead.insert(shown, at: 0) }
        shown = behind.removeFirst()
        return shown?.pts
    }
}

/// How an exact seek can be served from what is decoded.
/// Threading: a value type.
enum WithinReach {
    /// The picture is decoded: it can go on screen now.
    case landed
    /// The decoder can go on from where it is towards the target; a landing follows.
    case retargeted
    /// Neither: the demuxer has to move.
    case miss
}
