/// How a player is set up. Threading: a value type.
public struct PlayerConfiguration: Sendable {
    public enum AudioOutputChoice: String, Sendable, CaseIterable {
        /// PulseAudio (or PipeWire's Pulse server); silent on the monotonic clock when none answers.
        case pulse
        /// Silent, paced by the monotonic clock.
        case null
    }

    public var audioOutput: AudioOutputChoice = .pulse
    /// The sound server's sink to play to by name; nil follows the server's default (and the
    /// user's choice for this application, which the server remembers).
    public var audioDevice: String?
    /// The sound server to play through, in libpulse's address form (`unix:/path/to/native`,
    /// `tcp:host:4713`); nil: the one libpulse finds (`PULSE_SERVER`, else the session's).
    public var soundServer: String?
    /// Start playing as soon as the first frame is ready (unless `PlayerHooks.shouldStart` decides).
    public var autoplay = false
    /// Seconds between periodic `.time` events while playing.
    public var timeObserverInterval: Double = 1.0
    /// Report every picture that reaches the screen as a `.frameShown` event.
    public var observesEveryFrame = false
    /// Decoder threads; 0 lets FFmpeg choose from the core count.
    public var decoderThreads = 0
    /// Decoded pictures held ahead of the screen: at most this many, and no more than
    /// `videoQueueBytes` of them (so 4K holds fewer than SD), but never fewer than 3.
    public var videoQueueCapacity = 8
    public var videoQueueBytes = 16 << 20
    /// Benchmarks and soak tests: no real-time clock; every frame is handed out once, as fast
    /// as it is pulled, and audio is consumed as fast as it is decoded.
    public var freewheel = false
    /// The audio stream to play, by index in `MediaInfo.streams`; nil lets FFmpeg pick the best.
    public var audioStream: Int?
    /// Language codes tried in order for the audio stream when `audioStream` is nil.
    public var audioLanguages: [String] = []
    /// Interlaced pictures: deinterlaced when flagged (`auto`), always, or never.
    public var deinterlace = DeinterlaceMode.auto
    public var playsVideo = true
    public var playsAudio = true
    /// For the next opening: the sound from this file instead of the media's own (`ExternalAudio`).
    public var externalAudio: MediaSource?
    /// Web pages: yt-dlp finds their video (see `PageResolver`).
    public var webPages = WebPageOptions()
    /// Remote media goes through a disk cache unless this is turned off (see `StreamCacheOptions`).
    public var streamCache = StreamCacheOptions()
    /// When set, asked at each open instead of `streamCache` (preferences that change while
    /// the player lives). Called on the player's loader thread.
    public var streamCacheProvider: (@Sendable () -> StreamCacheOptions)?

    public init() {}
}
