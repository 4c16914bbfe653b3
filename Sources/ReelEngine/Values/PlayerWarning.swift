/// Something the person may want to know that does not stop playback: part of the media or the
/// sound cannot be played, and the rest plays on. Each case carries its details as they came
/// (stream index, codec, the reason FFmpeg or the sound server gave), a stable machine-readable
/// `code` (for `reel-tool`'s JSON and for hosts) and an English `description` for logs. The
/// engine does not translate warnings: a host maps each case to a sentence in the person's
/// language. Threading: a value type.
public enum PlayerWarning: Sendable, Equatable, CustomStringConvertible {
    /// The media's video stream is in a codec FFmpeg here has no decoder for; its sound plays.
    case videoCodecUnsupported(stream: Int, codec: String)
    /// The video stream's decoder refused to open (`reason`: what FFmpeg said); the sound plays.
    case videoDecoderFailed(stream: Int, codec: String, reason: String)
    /// The audio stream's decoder refused to open; the picture plays without sound.
    case audioDecoderFailed(stream: Int, codec: String, reason: String)
    /// Another audio stream was chosen, but its decoder refused to open; the sound playing
    /// before stays.
    case audioStreamRefused(stream: Int, codec: String, reason: String)
    /// No sound server answers (`reason`: what libpulse said); playback goes on silently, on
    /// the monotonic clock. Said once per player.
    case noSoundServer(reason: String)
    /// The sound server answers but would not open a stream to play on (`reason`: what it
    /// said, such as a sink that does not exist); playback goes on silently. Said once per player.
    case soundOutputFailed(reason: String)
    /// The video stream is Dolby Vision without a base layer that stands alone (profile 5, its
    /// `profile` name): Reel does not apply the RPU's reshaping, so it plays with wrong colours.
    case dolbyVisionColours(stream: Int, profile: String)
    /// A sound file added to the picture cannot be played (`name`: the file; `reason`: why);
    /// the media's own sound plays on.
    case audioFileFailed(name: String, reason: String)

    public var code: String {
        switch self {
        case .videoCodecUnsupported: "video_codec_unsupported"
        case .videoDecoderFailed: "video_decoder_failed"
        case .audioDecoderFailed: "audio_decoder_failed"
        case .audioStreamRefused: "audio_stream_refused"
        case .noSoundServer: "no_sound_server"
        case .soundOutputFailed: "sound_output_failed"
        case .dolbyVisionColours: "dolby_vision_colours"
        case .audioFileFailed: "audio_file_failed"
        }
    }

    /// In English, for logs and `reel-tool`, whatever the person's language.
    public var description: String {
        switch self {
        case .videoCodecUnsupported(let stream, let codec):
            "Video stream \(stream) uses \(codec), which Reel cannot decode; playing the sound only"
        case .videoDecoderFailed(let stream, _, let reason):
            "Video stream \(stream) cannot be shown: \(reason); playing the sound only"
        case .audioDecoderFailed(let stream, _, let reason):
            "Audio stream \(stream) cannot be played: \(reason); playing without sound"
        case .audioStreamRefused(let stream, _, let reason):
            "Audio stream \(stream) cannot be played: \(reason); the sound stays as it was"
        case .noSoundServer(let reason):
            "No sound server answers (\(reason)): playing without sound"
        case .soundOutputFailed(let reason):
            "Sound output failed (\(reason)): playing without sound"
        case .dolbyVisionColours(let stream, let profile):
            "Video stream \(stream) is Dolby Vision profile \(profile), which Reel cannot colour: its colours will be wrong"
        case .audioFileFailed(let name, let reason):
            "The sound file \(name) cannot be played (\(reason)); the media's own sound plays on"
        }
    }
}
