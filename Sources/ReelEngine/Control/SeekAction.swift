/// What the seek coordinator asks the control loop to do, in order.
/// Threading: a value type.
enum SeekAction {
    /// Move the demuxer (or switch the audio stream) to `request`; a landing follows.
    case seek(SeekRequest)
    /// The landing under way again from further back, under the new request's serial.
    case retry(SeekRequest)
    /// The decoder was handed a target ahead of it: only the picture lands, the sound stays.
    case retargeted(SeekRequest)
    /// A picture already decoded is on screen now, for this position; the sound stays.
    case landedFromPast(Double)
    /// The next decoded picture is on screen now, at this time; the sound follows it.
    case stepped(Double)
    /// A drag position that waited for the landing: asked for now, as a new scrub.
    case scrub(Double)

    /// A landing is under way once this is carried out.
    var startsLanding: Bool {
        switch self {
        case .seek, .retry, .retargeted: true
        case .landedFromPast, .stepped, .scrub: false
        }
    }
}
