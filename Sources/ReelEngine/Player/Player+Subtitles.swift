import Foundation

/// Subtitles and delays on the engine's player. Commands are queued to the control thread like
/// every other; the reading members and `subtitleImage` may be called from any thread.
extension Player {
    /// Every subtitle track known so far: files beside the media, added files, its own streams.
    public var subtitleTracks: [SubtitleTrack] { core.tracks.state.snapshot.current.tracks }
    public var selectedSubtitleTrack: SubtitleTrack? { core.tracks.state.selectedTrack }
    /// True while the media's own subtitle streams are still being read.
    public var subtitlesLoading: Bool { core.tracks.state.snapshot.current.loading }
    public var subtitleDelay: Double { core.tracks.state.snapshot.current.delay }
    public var audioDelay: Double { core.tracks.state.snapshot.current.audioDelay }
    public var subtitleStyle: SubtitleStyle { core.tracks.state.snapshot.current.style }

    /// Shows track `id` (from `subtitleTracks`), or none; the position is kept.
    public func selectSubtitleTrack(_ id: Int?) { send(.track(.select(id))) }
    /// Reads a subtitle file and shows it; `charset` (an iconv name) overrides detection.
    public func addSubtitleFile(_ path: String, charset: String? = nil) { send(.track(.addFile(path, charset: charset))) }
    public func setSubtitleDelay(_ seconds: Double) { send(.track(.setDelay(seconds))) }
    public func setAudioDelay(_ seconds: Double) { send(.track(.setAudioDelay(seconds))) }
    public func setSubtitleStyle(_ style: SubtitleStyle) { send(.track(.setStyle(style))) }
    /// Language codes ("en", "fra", ...) tried in order when media opens; stays for later media.
    public func setPreferredSubtitleLanguages(_ languages: [String]) { send(.track(.setPreferredLanguages(languages))) }
    /// The text encoding of subtitle files (nil: detect); files already open are read again.
    public func setSubtitleCharset(_ charset: String?) { send(.track(.setCharset(charset))) }

    /// Plays audio stream `index` of `mediaInfo.streams` instead (another language, a
    /// commentary): the media is opened again with it and continues from the picture on screen,
    /// playing or paused as before, with the same subtitles and delays. `mediaLoaded` tells the
    /// new `selectedAudioStream`.
    public func selectAudioStream(_ index: Int) { send(.track(.selectAudio(index))) }

    /// Plays the sound of another file (path, `file://` URI or URL) with this picture, in sync,
    /// from the picture on screen on; it is listed and chosen among the audio streams.
    public func addAudioFile(_ path: String) { send(.track(.addAudioFile(path))) }

    /// A web page's video in another of its qualities (`MediaInfo.webFormats`), from the
    /// picture on screen on.
    public func selectWebFormat(_ id: String) { send(.track(.selectWebFormat(id))) }

    /// For the next media opened (commands are applied in order: call before `open`): play
    /// audio stream `stream` if it has one (a choice remembered for that file).
    public func preferAudioStream(_ stream: Int?) { send(.track(.preferAudio(stream: stream, languages: nil))) }
    /// Language codes tried in order for the audio stream whenever media opens.
    public func setPreferredAudioLanguages(_ languages: [String]) { send(.track(.preferAudio(stream: nil, languages: languages))) }

    /// The encodings offered for subtitle files (iconv names).
    public static var subtitleCharsets: [String] { SubtitleCharset.choices }

    /// The subtitles shown over the picture of media time `time`, drawn at `width`×`height`
    /// pixels (the size the picture is shown at, so text stays sharp); nil when none. `lift`
    /// raises bottom text subtitles by that percentage of the height (to clear the controls).
    public func subtitleImage(at time: Double, width: Int, height: Int, lift: Double = 0) -> SubtitleImage? {
        let video = mediaInfo?.videoStream
        var videoWidth = video?.width ?? width, videoHeight = video?.height ?? height
        // Square pixels, as the picture is shown: libass takes this shape as the video's, and
        // text would be squeezed on anamorphic video otherwise.
        if let sar = video?.sampleAspectRatio, sar.numerator > 0, sar.denominator > 0 {
            videoWidth = Int((Double(videoWidth) * sar.value).rounded())
        }
        if let rotation = video?.rotation, rotation % 180 != 0 { swap(&videoWidth, &videoHeight) }
        return core.tracks.state.image(at: time, width: width, height: height,
                                          videoWidth: videoWidth, videoHeight: videoHeight, lift: lift)
    }
}
