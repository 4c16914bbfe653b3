import Foundation

/// Plain pictures for subtitle tests: one flat colour, so OCR and region checks see only the
/// subtitles; and a Matroska file with two subtitle streams of its own (SRT English, ASS French).
extension Fixtures.Spec {
    public static let subtitleCanvas = Self(name: "subtitle-canvas", ext: "mp4", arguments: [
        "-f", "lavfi", "-i", "color=c=0x303030:s=960x540:r=25:d=6",
        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
    ])

    /// The canvas with an English SRT stream (1) and a French ASS stream (2, yellow, at the top).
    public static let subtitleStreams = Self(name: "subtitle-streams", ext: "mkv", arguments: [
        "-f", "lavfi", "-i", "color=c=0x303030:s=960x540:r=25:d=4",
        "-f", "srt", "-i", "data:text/plain;base64," + Data("""
            1
            00:00:00,500 --> 00:00:03,000
            English words

            """.utf8).base64EncodedString(),
        "-f", "ass", "-i", "data:text/plain;base64," + Data(SubtitleTexts.yellowTopASS.utf8).base64EncodedString(),
        "-map", "0:v", "-map", "1", "-map", "2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
        "-c:s:0", "srt", "-c:s:1", "ass", "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=fre",
        "-disposition:s:0", "0", "-disposition:s:1", "0",
    ])

    /// MP4's own text subtitles (mov_text, as phones and iTunes write them).
    public static let movTextStream = Self(name: "mov-text", ext: "mp4", arguments: [
        "-f", "lavfi", "-i", "color=c=0x303030:s=960x540:r=25:d=3",
        "-f", "srt", "-i", "data:text/plain;base64," + Data("1\n00:00:00,500 --> 00:00:02,500\nPhone words\n\n".utf8).base64EncodedString(),
        "-map", "0:v", "-map", "1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
        "-c:s", "mov_text", "-metadata:s:s:0", "language=eng",
    ])

    /// Two audio streams (English at 440 Hz, German at 880 Hz) and an English SRT stream.
    public static let twoAudioStreams = Self(name: "two-audio-streams", ext: "mkv", arguments: [
        "-f", "lavfi", "-i", "color=c=0x303030:s=320x180:r=25:d=4",
        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
        "-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=4",
        "-f", "srt", "-i", "data:text/plain;base64," + Data("1\n00:00:00,000 --> 00:00:04,000\nWords\n\n".utf8).base64EncodedString(),
        "-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3", "-c:v", "libx264", "-preset", "ultrafast",
        "-pix_fmt", "yuv420p", "-c:a", "aac", "-c:s", "srt",
        "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=ger", "-metadata:s:s:0", "language=eng",
    ])
}

/// Subtitle texts the tests write and read back. Threading: constants.
public enum SubtitleTexts {
    public static let yellowTopASS = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 640
        PlayResY: 360

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Top,DejaVu Sans,36,&H0000FFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,8,10,10,20,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:00.50,0:00:03.00,Top,,0,0,0,,Yellow words

        """
}

/// Real bitmap subtitle streams, made the way DVDs and broadcasts carry them: a subtitle
/// picture rendered by ImageMagick, multiplexed as a DVD subpicture (VobSub) by dvdauthor's
/// spumux, kept in Matroska as rips keep it, and re-encoded by FFmpeg as DVB subtitles in
/// MPEG-TS. "Bitmap words" shows from 0.5 s to 3 s near the bottom of a 720×576 canvas.
extension Fixtures {
    static let dvdVideo = Spec(name: "dvd-video", ext: "mpg", arguments: [
        "-f", "lavfi", "-i", "color=c=0x303030:s=720x576:r=25:d=4", "-c:v", "mpeg2video", "-f", "dvd",
    ])

    /// Matroska with an MPEG-2 picture and a DVD subtitle stream (1).
    public static func dvdSubtitles() throws -> String {
        try derived("dvd-subtitles", ext: "mkv", from: dvdVideo) { video, destination in
            let work = destination + ".work"
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: work) }
            try Command.run(["convert", "-size", "720x576", "xc:none", "-font", "DejaVu-Sans", "-pointsize", "48",
                             "-fill", "white", "-gravity", "south", "-annotate", "+0+60", "Bitmap words",
                             "-colors", "4", "PNG8:\(work)/sub.png"])
            try """
                <subpictures><stream>
                <spu start="00:00:00.50" end="00:00:03.00" image="\(work)/sub.png" force="yes" />
                </stream></subpictures>
                """.write(toFile: work + "/subs.xml", atomically: true, encoding: .utf8)
            try Command.run(["sh", "-c", "spumux -s0 \(Command.shellQuote(work + "/subs.xml")) < \(Command.shellQuote(video)) > \(Command.shellQuote(work + "/muxed.mpg"))"])
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-nostdin", "-fflags", "+genpts",
                             "-i", work + "/muxed.mpg", "-map", "0:v", "-map", "0:s", "-c", "copy", "-f", "matroska", destination])
        }
    }

    /// The same picture and subtitle as DVB subtitles (1) in MPEG-TS.
    public static func dvbSubtitles() throws -> String {
        let dvd = try dvdSubtitles()
        return try derived("dvb-subtitles", ext: "ts", from: dvdVideo) { _, destination in
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-nostdin", "-i", dvd,
                             "-map", "0:v", "-map", "0:s", "-c:v", "copy", "-c:s", "dvbsub", "-f", "mpegts", destination])
        }
    }
}
