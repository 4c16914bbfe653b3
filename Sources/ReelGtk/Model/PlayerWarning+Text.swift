import Foundation
import ReelEngine

/// What a warning says to the person, in their language: what cannot be played, and what plays
/// on. The engine keeps its warnings as values (and English for logs); the words are the
/// window's.
/// Threading: a value type's computed text (gettext's lookups are thread-safe).
extension PlayerWarning {
    public var message: String {
        switch self {
        case .videoCodecUnsupported(_, let codec):
            // Translators: %@ is the video's format (a codec name such as "hevc").
            String(format: tr("The picture cannot be shown: Reel cannot decode %@. Playing the sound only."), codec)
        case .videoDecoderFailed(_, let codec, let reason):
            // Translators: %1$@ is the video's format, %2$@ the decoder's reason (in English).
            String(format: tr("The picture cannot be shown (%1$@: %2$@). Playing the sound only."), codec, reason)
        case .audioDecoderFailed(_, let codec, let reason):
            // Translators: %1$@ is the sound's format, %2$@ the decoder's reason (in English).
            String(format: tr("The sound cannot be played (%1$@: %2$@). Playing without sound."), codec, reason)
        case .audioStreamRefused(_, let codec, let reason):
            // Translators: another sound track was chosen; %1$@ is its format, %2$@ the reason.
            String(format: tr("That sound track cannot be played (%1$@: %2$@). The sound stays as it was."), codec, reason)
        case .noSoundServer(let reason):
            // Translators: %@ is why (in English, from the sound system).
            String(format: tr("No sound: no sound server answers (%@). Playing without sound."), reason)
        case .soundOutputFailed(let reason):
            // Translators: %@ is why (in English, from the sound server).
            String(format: tr("No sound: the sound output could not be opened (%@). Playing without sound."), reason)
        case .dolbyVisionColours(_, let profile):
            // Translators: %@ is the Dolby Vision profile's name, such as "5".
            String(format: tr("This video is Dolby Vision profile %@, which Reel cannot colour: its colours will look wrong."), profile)
        case .audioFileFailed(let name, let reason):
            // Translators: %1$@ is the sound file's name, %2$@ the reason (in English).
            String(format: tr("The sound file %1$@ cannot be played (%2$@). The video's own sound plays on."),
                   (name as NSString).lastPathComponent, reason)
        }
    }
}
