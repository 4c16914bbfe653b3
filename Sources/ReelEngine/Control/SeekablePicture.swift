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
