import Foundation

/// A picture without its sound and a sound file of its own, for playing one with the other
/// (Add Audio File…): made once by ffmpeg under the fixtures folder.
/// Threading: call from one test at a time.
public enum SoundFileFixtures {
    /// `spec`'s clip with its sound left out (its picture copied as it is).
    public static func pictureOnly(_ spec: Fixtures.Spec, name: String) throws -> String {
        let video = Fixtures.directory.appendingPathComponent(name).path
        if !FileManager.default.fileExists(atPath: video) {
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", try Fixtures.path(spec),
                             "-an", "-c", "copy", video + ".part.mp4"])
            try FileManager.default.moveItem(atPath: video + ".part.mp4", toPath: video)
        }
        return video
    }

    /// Four seconds of seeded white noise, 48 kHz mono FLAC: any 25 ms of it is found in one
    /// place only by cross-correlation.
    public static func whiteNoise() throws -> String {
        let sound = Fixtures.directory.appendingPathComponent("external-audio-noise.flac").path
        if !FileManager.default.fileExists(atPath: sound) {
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                             "-i", "anoisesrc=d=4:c=white:r=48000:a=0.3:s=7", "-ac", "1", sound + ".part.flac"])
            try FileManager.default.moveItem(atPath: sound + ".part.flac", toPath: sound)
        }
        return sound
    }
}
