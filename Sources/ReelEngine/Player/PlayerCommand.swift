/// What a host asks of a player; queued to the control thread in order.
/// Threading: value types.
enum PlayerCommand: Sendable {
    case open(MediaSource)
    case openFailed(PlayerError)
    case play
    case pause
    case togglePause
    case seek(to: Double, mode: SeekMode)
    case stepForward
    case stepBackward
    case scrub(to: Double)
    case endScrub(at: Double)
    case close
    case setVolume(Double)
    case setMuted(Bool)
    case setSpeed(Double)
    case setLevelling(Bool)
    case setDeinterlace(DeinterlaceMode)
    case setTimeObserverInterval(Double)
    case setObservesEveryFrame(Bool)
    case track(TrackCommand)
    case setNext(MediaSource?, audioStream: Int?)
    case setLoop(LoopSpan?)
    case prefetchPicture(at: Double?)
}
