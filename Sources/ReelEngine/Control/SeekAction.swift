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

/// What the seek coordinator needs to know of the player when it decides.
/// Threading: a value made and used on the control thread.
struct SeekContext {
    var state: PlayerState
    /// Media is loaded (a session runs).
    var hasSession: Bool
    var hasVideo: Bool
    var hasAudio: Bool
    /// A landing (a seek's or the opening's preroll) is under way.
    var landing: Bool
    /// Targets are clamped to it.
    var duration: Double?
    /// Moves the player out of `.ended` for a seek; false when the host vetoes it.
    var leaveEnd: () -> Bool = { true }
}

/// What the seek coordinator asks of the picture, synchronously: what is on screen and what
/// is decoded around it. The session answers in the player; tests answer with a plain value.
/// Threading: called on the control thread.
protocol SeekablePicture {
    /// The picture on screen: its time and how long it shows.
    var shown: (pts: Double, duration: Double)? { get }
    /// An exact seek served without moving the demuxer (see `Session.seekWithinReach`).
    func withinReach(_ request: SeekRequest) -> WithinReach
    /// Shows the next decoded picture; its time, or nil when none is decoded yet.
    func stepForward() -> Double?
    /// Shows the picture before the one on screen while the past holds it; its time, or nil.
    func stepBack() -> Double?
    /// The decoder met the end and every decoded picture has been shown.
    var decodedToEnd: Bool { get }
}

/// How an exact seek was served from what is decoded.
/// Threading: a value type.
enum WithinReach {
    /// The picture was decoded: it is on screen now.
    case landed
    /// The decoder goes on from where it is towards the target; a landing follows.
    case retargeted
    /// Neither: the demuxer has to move.
    case miss
}
