/// Everything a player reports. Delivered in order through the one sink the host supplies,
/// on the player's control thread; the host decides where to hop (a GTK host hops to the
/// main loop). Threading: value types.
public enum PlayerEvent: Sendable {
    /// The state machine moved (the "did change" hook).
    case stateChanged(from: PlayerState, to: PlayerState)
    /// A command's transition was refused by `PlayerHooks.shouldChangeState`.
    case transitionVetoed(from: PlayerState, to: PlayerState)
    /// The duration, as soon as the container says it (before the first frame is decoded).
    case durationKnown(Double)
    /// Probing finished: streams, metadata, chapters.
    case mediaLoaded(MediaInfo)
    /// The first picture of this media reached the screen: playback has visibly begun.
    case firstFrameShown(pts: Double)
    /// Every picture that reaches the screen, when `PlayerConfiguration.observesEveryFrame`.
    case frameShown(FrameReport)
    /// The periodic time observer (every `timeObserverInterval` while playing), and after
    /// seeks, steps and state changes.
    case time(position: Double, duration: Double?)
    /// A seek or step landed; the position is where playback continues.
    case seekCompleted(position: Double)
    /// The picture to show changed while no frame clock is running (paused seek, step, load):
    /// a host that draws on demand should pull a frame now.
    case displayInvalidated
    /// The exact picture at this time was decoded ahead (`Player.prefetchPicture`): a seek
    /// there shows it at once.
    case pictureDecodedAhead(at: Double)
    /// Played to the end.
    case playedToEnd
    /// The item set with `Player.setNext` took over gaplessly at the current one's end (no
    /// `playedToEnd` for that one). The new media's `durationKnown`, `mediaLoaded` and
    /// `firstFrameShown` follow; the state stays `playing`.
    case nextItemStarted(source: MediaSource)
    case volumeChanged(volume: Double, muted: Bool)
    /// The playback speed changed (media seconds per second; pitch is kept).
    case speedChanged(Double)
    /// Loudness levelling was switched on or off (`PlaybackController.setLevelling`).
    case levellingChanged(Bool)
    /// The A-B loop the player holds now (`Player.setLoop`; nil: none, as when the item changes).
    case loopChanged(LoopSpan?)
    /// Deinterlacing started or stopped, or its mode changed (at each opening too).
    case deinterlacingChanged(DeinterlaceStatus)
    /// Part of the media or the sound cannot be played and the rest plays on: a typed case
    /// that the host puts into the person's words.
    case warning(PlayerWarning)
    /// The subtitle tracks known now (files beside the media come first, the media's own
    /// streams once read); sent again as tracks are added.
    case subtitleTracksChanged([SubtitleTrack])
    /// The shown subtitle track changed, by the person or by the preferred languages (nil: off).
    /// Each side carries its language, so a host can say what changed to what.
    case subtitleChanged(from: SubtitleTrack?, to: SubtitleTrack?)
    /// Seconds the subtitles are shown later than their times (negative: earlier).
    case subtitleDelayChanged(Double)
    /// Another of the media's audio streams plays now (`Player.selectAudioStream`), from the
    /// same picture; `info.selectedAudioStream` says which.
    case audioStreamChanged(MediaInfo)
    /// Seconds the sound is heard later than the picture (negative: earlier).
    case audioDelayChanged(Double)
    /// A subtitle file could not be used; the message says why.
    case subtitleFileFailed(path: String, error: PlayerError)
    /// Remote media: what of it is on disk so far (a few times a second while downloading).
    case downloadProgress(DownloadProgress)
    /// Remote media is wholly in the cache, at this path: it now plays without the network.
    case downloadFinished(path: String)
    /// Downloading stopped for good (the error says why); what is cached still plays.
    case downloadFailed(PlayerError)
    /// The connection dropped and is being made again (attempt counts from 1).
    case reconnecting(attempt: Int, reason: String)
    /// An interstitial began in place of the main item, which waits at `at` (its position).
    case interstitialStarted(InterstitialReport)
    /// Where the playing interstitial is (its own time, not the main item's).
    case interstitialProgress(position: Double, duration: Double?)
    /// The interstitial finished (or could not play: `error`); the main item continues.
    case interstitialEnded(InterstitialReport, error: PlayerError?)
}

/// One interstitial: which of the scheduled ones, what it plays, and where in the main item.
/// Threading: a value type.
public struct InterstitialReport: Sendable, Equatable {
    public let index: Int
    public let source: MediaSource
    /// The main item's position it plays at (0: before the main item).
    public let at: Double
}

/// One picture that reached the screen. Threading: a value type.
public struct FrameReport: Sendable {
    public let pts: Double
    public let index: Int?
    /// Frame time minus clock time when it was first shown, in seconds.
    public let drift: Double?
}
