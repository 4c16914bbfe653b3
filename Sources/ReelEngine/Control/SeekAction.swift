/// What the seek coordinator decided, for the control loop to carry out in order (`carryOut`):
/// values only; the coordinator itself touches nothing.
/// Threading: a value type.
enum SeekAction {
    /// Move the demuxer (or switch the audio stream) to `request`; a landing follows.
    case seek(SeekRequest)
    /// The landing under way again from further back, under the new request's serial.
    case retry(SeekRequest)
    /// An exact seek the decoder reaches by going on from where it is: only the picture lands
    /// (a landing follows), the sound stays.
    case retarget(SeekRequest)
    /// An exact seek to a picture already decoded: on screen now; the sound stays.
    case showDecoded(SeekRequest)
    /// The next decoded picture goes on screen (at this time); the sound follows it.
    case stepForward(Double)
    /// The picture before the one on screen goes on screen (at this time); the sound stays.
    case stepBack(Double)
    /// A drag position that waited for the landing: asked for now, as a new scrub.
    case scrub(Double)

    /// A landing is under way once this is carried out.
    var startsLanding: Bool {
        switch self {
        case .seek, .retry, .retarget: true
        case .showDecoded, .stepForward, .stepBack, .scrub: false
        }
    }
}
