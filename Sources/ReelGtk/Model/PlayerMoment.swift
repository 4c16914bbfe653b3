import ReelEngine

/// Something that happened once, as opposed to state: the player model tells its observers of
/// it with the change it made (`PlayerModel.Change.moment`). What a moment also changes (the
/// next item's source, a landed position) is in the model before anyone hears of it.
/// Threading: a value type.
public enum PlayerMoment: Sendable {
    /// Probing finished: what is open now is known (not sent again for another audio stream).
    case loaded(MediaInfo)
    /// The first picture of the media reached the screen.
    case firstPictureShown
    /// A seek was asked for (a key, the scrubber, a scan, the remote): where it is to land
    /// (`landed` follows, or another request first).
    case seekRequested(target: Double)
    /// A seek or a step landed here; play goes on from it.
    case landed(position: Double)
    /// The picture to show changed while nothing redraws by itself (paused seek, step, load).
    case pictureChanged
    case playedToEnd
    /// The exact picture at a time was decoded ahead, for a click there.
    case pictureDecodedAhead(at: Double)
    /// What was prepared to follow took over without a gap.
    case nextItemStarted(MediaSource)
    /// Another of the media's sound streams plays now (`PlayerModel.mediaInfo` says which).
    case audioStreamChanged
    /// The subtitle track shown changed (nil: none), by the person or by the preferences.
    case subtitleChosen(SubtitleTrack?)
    case subtitleDelayChanged(Double)
    case audioDelayChanged(Double)
    /// Something the person may want to know that does not stop playback.
    case warning(PlayerWarning)
    case subtitleFileFailed(path: String, error: PlayerError)
    case breakStarted(InterstitialReport)
    case breakEnded(InterstitialReport, error: PlayerError?)
    case downloadFinished(path: String)
    case downloadFailed(PlayerError)
    case reconnecting(attempt: Int, reason: String)
    /// A command's change of state was refused by the player's hooks.
    case vetoed(from: PlayerState, to: PlayerState)
    /// A picture reached the screen (only when the player reports every one).
    case frameShown(FrameReport)
}
