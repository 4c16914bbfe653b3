/// What some players can do beyond `PlaybackController`, each a small protocol that a front
/// end looks up once when it is given a player (never by casting to a concrete player), so
/// that another player (a cast target, a recorded session) plugs in with what it has.
/// Threading: as the conforming player's own (`Player` and `InterstitialPlayer`: any thread).

/// Breaks (interstitials): other media played in the middle of what is open, after which it
/// goes on where it stopped.
public protocol BreakScheduling: AnyObject, Sendable {
    /// Plays `source` when the open media reaches `seconds` (0: before it starts).
    func schedule(_ source: MediaSource, at seconds: Double)
    /// Drops the breaks not yet played (they belong to the media they were scheduled in).
    func clearSchedule()
    /// A break plays now, and the media it interrupts waits.
    var isSuspended: Bool { get }
}

extension InterstitialPlayer: BreakScheduling {}

/// Subtitle and sound tracks: listing and choosing them, their delays and preferences, and
/// the subtitles drawn over a picture.
public protocol TrackSelection: AnyObject, Sendable {
    var subtitleTracks: [SubtitleTrack] { get }
    var selectedSubtitleTrack: SubtitleTrack? { get }
    /// Subtitle files are still being read (a choice made now would be overridden).
    var subtitlesLoading: Bool { get }
    var subtitleDelay: Double { get }
    var audioDelay: Double { get }
    func selectSubtitleTrack(_ id: Int?)
    func addSubtitleFile(_ path: String, charset: String?)
    func setSubtitleDelay(_ seconds: Double)
    func setAudioDelay(_ seconds: Double)
    func setSubtitleStyle(_ style: SubtitleStyle)
    func setPreferredSubtitleLanguages(_ languages: [String])
    func setSubtitleCharset(_ charset: String?)
    func selectAudioStream(_ index: Int)
    /// Plays the sound of another file with this picture (see `Player.addAudioFile`).
    func addAudioFile(_ path: String)
    /// A web page's video in another quality (see `Player.selectWebFormat`).
    func selectWebFormat(_ id: String)
    /// The sound stream to play from the start of the next open (nil: by language).
    func preferAudioStream(_ stream: Int?)
    func setPreferredAudioLanguages(_ languages: [String])
    /// The subtitles over the picture at `time`, drawn at a size in pixels; `lift`: percent of
    /// the height the bottom ones move up.
    func subtitleImage(at time: Double, width: Int, height: Int, lift: Double) -> SubtitleImage?
}

extension TrackSelection {
    public func addSubtitleFile(_ path: String) { addSubtitleFile(path, charset: nil) }

    public func subtitleImage(at time: Double, width: Int, height: Int) -> SubtitleImage? {
        subtitleImage(at: time, width: width, height: height, lift: 0)
    }
}

extension Player: TrackSelection {}

/// What is done to the pictures before they are drawn: deinterlacing.
public protocol PictureProcessing: AnyObject, Sendable {
    /// What is done to interlaced pictures now (nil before the first frame is decoded).
    var deinterlacing: DeinterlaceStatus? { get }
    /// From the picture on screen on, and for the next openings.
    func setDeinterlace(_ mode: DeinterlaceMode)
}

extension Player: PictureProcessing {}

/// The main item's pictures: a break plays with the same mode.
extension InterstitialPlayer: PictureProcessing {
    public var deinterlacing: DeinterlaceStatus? { mainPlayer.deinterlacing }
    public func setDeinterlace(_ mode: DeinterlaceMode) { mainPlayer.setDeinterlace(mode) }
}

/// The tracks are the main item's; while a break plays no subtitles show over it.
extension InterstitialPlayer: TrackSelection {
    public var subtitleTracks: [SubtitleTrack] { mainPlayer.subtitleTracks }
    public var selectedSubtitleTrack: SubtitleTrack? { mainPlayer.selectedSubtitleTrack }
    public var subtitlesLoading: Bool { mainPlayer.subtitlesLoading }
    public var subtitleDelay: Double { mainPlayer.subtitleDelay }
    public var audioDelay: Double { mainPlayer.audioDelay }
    public func selectSubtitleTrack(_ id: Int?) { mainPlayer.selectSubtitleTrack(id) }
    public func addSubtitleFile(_ path: String, charset: String?) { mainPlayer.addSubtitleFile(path, charset: charset) }
    public func setSubtitleDelay(_ seconds: Double) { mainPlayer.setSubtitleDelay(seconds) }
    public func setAudioDelay(_ seconds: Double) { mainPlayer.setAudioDelay(seconds) }
    public func setSubtitleStyle(_ style: SubtitleStyle) { mainPlayer.setSubtitleStyle(style) }
    public func setPreferredSubtitleLanguages(_ languages: [String]) { mainPlayer.setPreferredSubtitleLanguages(languages) }
    public func setSubtitleCharset(_ charset: String?) { mainPlayer.setSubtitleCharset(charset) }
    public func selectAudioStream(_ index: Int) { mainPlayer.selectAudioStream(index) }
    public func addAudioFile(_ path: String) { mainPlayer.addAudioFile(path) }
    public func selectWebFormat(_ id: String) { mainPlayer.selectWebFormat(id) }
    public func preferAudioStream(_ stream: Int?) { mainPlayer.preferAudioStream(stream) }
    public func setPreferredAudioLanguages(_ languages: [String]) { mainPlayer.setPreferredAudioLanguages(languages) }
    public func subtitleImage(at time: Double, width: Int, height: Int, lift: Double) -> SubtitleImage? {
        isSuspended ? nil : mainPlayer.subtitleImage(at: time, width: width, height: height, lift: lift)
    }
}
