/// What a player did, for tools and tests. Threading: a value type.
public struct PlaybackStatistics: Sendable, Equatable {
    public var framesShown = 0
    public var framesDropped = 0
    public var framesDecoded = 0
    public var audioSamplesDecoded = 0
    public var decodeErrors = 0
    public var driftP95Milliseconds: Double?
    public var driftMaxMilliseconds: Double?
    /// Times the sound device ran dry while playing (each an audible gap).
    public var audioUnderruns = 0
    public var audioOutput: String?
    public var audioFormat: AudioFormat?
    /// Seeks that showed their picture at once, decoded ahead (`Player.prefetchPicture`).
    public var prefetchesServed = 0
    /// A-B loop jumps made seamlessly (the prepared start took over), and those made by an
    /// exact seek because nothing was prepared in time (each a short gap in the sound).
    public var loopJumps = 0
    public var loopJumpsBySeek = 0
}
