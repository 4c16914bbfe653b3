/// What a host asks of the player's tracks: the subtitles shown, the audio stream heard, and
/// their delays. Threading: value types.
enum TrackCommand: Sendable {
    case select(Int?)
    case addFile(String, charset: String?)
    case setDelay(Double)
    case setAudioDelay(Double)
    case setStyle(SubtitleStyle)
    case setPreferredLanguages([String])
    case setCharset(String?)
    case selectAudio(Int)
    /// Plays the sound of this file (path or URL) with the media's picture, from the picture
    /// on screen on.
    case addAudioFile(String)
    /// A web page's video in another quality (a yt-dlp format id of `MediaInfo.webFormats`).
    case selectWebFormat(String)
    /// For the next media opened: this audio stream (a remembered choice), else these languages.
    case preferAudio(stream: Int?, languages: [String]?)
}
