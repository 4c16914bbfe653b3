import Foundation

/// Test media, generated at test time from FFmpeg's lavfi sources into a cache folder, so
/// nothing large is committed and every fixture can be regenerated. Each fixture is made once
/// per machine (the file name holds a hash of its recipe) and at most once at a time.
/// Threading: any test thread; generation is serialised per fixture.
public enum Fixtures {
    public struct Spec: Sendable, Hashable {
        public let name: String
        public let ext: String
        /// ffmpeg arguments between the global flags and the output file.
        public let arguments: [String]
        /// What the test expects of it (for readable test names).
        public var summary: String { name }

        public init(name: String, ext: String, arguments: [String]) {
            self.name = name
            self.ext = ext
            self.arguments = arguments
        }
    }

    public static let directory: URL = {
        let base = ProcessInfo.processInfo.environment["REEL_FIXTURES"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("reel-test-fixtures")
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        return base
    }()

    private static let locks = Locked([String: NSLock]())

    /// The path of `spec`'s file, generating it first if needed.
    public static func path(_ spec: Spec) throws -> String {
        let url = directory.appendingPathComponent("\(spec.name)-\(recipeHash(spec)).\(spec.ext)")
        let lock = locks.withLock { table -> NSLock in
            if let l = table[spec.name] { return l }
            let l = NSLock(); table[spec.name] = l; return l
        }
        lock.lock(); defer { lock.unlock() }
        if FileManager.default.fileExists(atPath: url.path) { return url.path }
        let partial = url.path + ".partial.\(spec.ext)"
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-nostdin"]
                        + spec.arguments + [partial])
        try FileManager.default.moveItem(atPath: partial, toPath: url.path)
        return url.path
    }

    /// A file derived from another (truncated, damaged, ...), cached like the others.
    public static func derived(_ name: String, ext: String, from base: Spec,
                        make: (_ source: String, _ destination: String) throws -> Void) throws -> String {
        let source = try path(base)
        let url = directory.appendingPathComponent("\(name)-\(recipeHash(base)).\(ext)")
        if !FileManager.default.fileExists(atPath: url.path) {
            let partial = url.path + ".partial"
            try make(source, partial)
            try? FileManager.default.removeItem(atPath: url.path)
            try FileManager.default.moveItem(atPath: partial, toPath: url.path)
        }
        return url.path
    }

    private static func recipeHash(_ spec: Spec) -> String {
        // FNV-1a: stable across runs (Swift's Hasher is seeded per process).
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in (spec.arguments.joined(separator: "\u{1}") + spec.ext).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100000001b3
        }
        return String(hash, radix: 16)
    }
}

/// The fixture catalog: codecs, containers, frame rates, GOP shapes, audio layouts.
extension Fixtures.Spec {
    public static func video(_ name: String, ext: String, size: String = "320x240", rate: String, seconds: Double,
                      codec: [String], audio: [String]? = nil, extra: [String] = []) -> Self {
        var args = ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)"]
        if let audio {
            args += audio
        }
        args += ["-map", "0:v"] + (audio != nil ? ["-map", "1:a"] : []) + codec + extra
        if audio != nil { args += ["-shortest"] }
        return .init(name: name, ext: ext, arguments: args)
    }

    public static func sine(_ seconds: Double, rate: Int = 48000, layout: String = "stereo", codec: [String]) -> [String] {
        ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(rate):duration=\(seconds),aformat=channel_layouts=\(layout)"]
            + codec
    }

    /// H.264 in MP4, 30 fps, 1 s GOP with B-frames (and B-pyramid), AAC stereo.
    public static let h264MP4 = video("h264-30fps-bframes", ext: "mp4", size: "640x360", rate: "30", seconds: 4,
                               codec: ["-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-bf", "3", "-pix_fmt", "yuv420p"],
                               audio: sine(4, codec: ["-c:a", "aac", "-b:a", "96k"]))
    /// H.264 in Matroska at 23.976 fps with open GOPs, AC-3 5.1.
    public static let h264OpenGOP = video("h264-23976-opengop", ext: "mkv", rate: "24000/1001", seconds: 3,
                                   codec: ["-c:v", "libx264", "-preset", "veryfast", "-g", "24", "-bf", "3",
                                           "-x264-params", "open-gop=1:keyint_min=24:scenecut=0", "-pix_fmt", "yuv420p"],
                                   audio: sine(3, layout: "5.1", codec: ["-c:a", "ac3", "-b:a", "192k"]))
    /// HEVC in Matroska at 25 fps with B-frames, Opus mono.
    public static let hevcMKV = video("hevc-25fps", ext: "mkv", rate: "25", seconds: 3,
                               codec: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=none:keyint=25:bframes=3",
                                       "-pix_fmt", "yuv420p"],
                               audio: sine(3, layout: "mono", codec: ["-c:a", "libopus", "-b:a", "48k"]))
    /// VP9 in WebM at 25 fps, Opus stereo.
    public static let vp9WebM = video("vp9-25fps", ext: "webm", rate: "25", seconds: 3,
                               codec: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "25", "-b:v", "300k"],
                               audio: sine(3, codec: ["-c:a", "libopus", "-b:a", "64k"]))
    /// AV1 (decoded by dav1d) in MP4, 30 fps, video only.
    public static let av1MP4 = video("av1-30fps", ext: "mp4", rate: "30", seconds: 2,
                              codec: ["-c:v", "libsvtav1", "-preset", "12", "-g", "30", "-pix_fmt", "yuv420p"])
    /// MPEG-4 Part 2 in AVI at 60 fps, MP3 stereo.
    public static let mpeg4AVI = video("mpeg4-60fps", ext: "avi", rate: "60", seconds: 2,
                                codec: ["-c:v", "mpeg4", "-q:v", "5", "-g", "30", "-bf", "2"],
                                audio: sine(2, rate: 44100, codec: ["-c:a", "libmp3lame", "-b:a", "128k"]))
    /// H.264 10-bit, 4:2:0, video only.
    public static let h264TenBit = video("h264-10bit", ext: "mkv", rate: "30", seconds: 2,
                                  codec: ["-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p10le"])
    /// Video only (no audio stream at all).
    public static let videoOnly = video("h264-video-only", ext: "mp4", rate: "30", seconds: 2,
                                 codec: ["-c:v", "libx264", "-preset", "veryfast", "-g", "15", "-pix_fmt", "yuv420p"])
    /// Video only in Matroska (its codec ID can be renamed to make an unknown codec).
    public static let videoOnlyMKV = video("h264-video-only-mkv", ext: "mkv", rate: "25", seconds: 1,
                                    codec: ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"])
    /// MPEG-TS, which resynchronises after damage.
    public static let h264TS = video("h264-ts", ext: "ts", rate: "25", seconds: 4,
                              codec: ["-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-pix_fmt", "yuv420p"],
                              audio: sine(4, codec: ["-c:a", "aac", "-b:a", "96k"]))
    /// Audio only: Vorbis in Ogg, stereo.
    public static let audioOnly = Self(name: "vorbis-audio-only", ext: "ogg",
                                arguments: sine(2, codec: ["-c:a", "libvorbis"]))
    /// Audio only: 5.1 AAC in M4A, for the downmix.
    public static let surroundAudio = Self(name: "aac-5.1-audio-only", ext: "m4a",
                                    arguments: sine(2, layout: "5.1", codec: ["-c:a", "aac", "-b:a", "256k"]))
    /// Six seconds of a 440 Hz tone: its pitch and length are easy to measure from a recording.
    public static let tone440 = Self(name: "tone-440-6s", ext: "m4a",
                                     arguments: sine(6, codec: ["-c:a", "aac", "-b:a", "128k"]))
    /// Three seconds of the same tone, for plays at changed speeds: 1.5 s at 2×, 6 s at 0.5×.
    public static let tone440Short = Self(name: "tone-440-3s", ext: "m4a",
                                          arguments: sine(3, codec: ["-c:a", "aac", "-b:a", "128k"]))
    /// Two items for gapless queues: two seconds each of different pictures and tones (440 and
    /// 660 Hz), with FLAC sound, which is sample-exact (no codec delay or padding of its own).
    public static let gaplessFirst = gapless("gapless-first", picture: "testsrc2", tone: 440)
    public static let gaplessSecond = gapless("gapless-second", picture: "smptehdbars", tone: 660)

    static func gapless(_ name: String, picture: String, tone: Int) -> Self {
        .init(name: name, ext: "mkv", arguments: [
            "-f", "lavfi", "-i", "\(picture)=size=320x240:rate=25:duration=2",
            "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000:duration=2,aformat=channel_layouts=stereo",
            "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-pix_fmt", "yuv420p",
            "-c:a", "flac",
        ])
    }

    /// A minute of small video with sound, for soak runs.
    public static let longSmall = video("long-small", ext: "mp4", rate: "30", seconds: 60,
                                 codec: ["-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-pix_fmt", "yuv420p"],
                                 audio: sine(60, codec: ["-c:a", "aac", "-b:a", "64k"]))
    /// Ten seconds of solid red with sound: on screen, anything that is not red is ours.
    public static let solidRed = Self(name: "solid-red", ext: "mp4", arguments: [
        "-f", "lavfi", "-i", "color=c=red:s=640x360:r=30:d=10",
        "-f", "lavfi", "-i", "sine=frequency=330:sample_rate=48000:duration=10",
        "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-g", "30",
        "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k", "-shortest",
    ])
    /// A title, metadata and chapters; a key frame every second (six in all, listed in the
    /// Matroska cues), so previews of different moments show different pictures.
    public static let withChapters = Self(name: "chapters", ext: "mkv", arguments: [
        "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=6",
        "-f", "ffmetadata", "-i", chaptersMetadata,
        "-map", "0:v", "-map_metadata", "1", "-map_chapters", "1",
        "-c:v", "libx264", "-preset", "ultrafast", "-g", "10", "-keyint_min", "10", "-sc_threshold", "0",
        "-pix_fmt", "yuv420p",
    ])
    /// 320x180 with square pixels shown 2:1 wide (anamorphic), two key frames a second.
    public static let anamorphic = video("anamorphic-sar2", ext: "mkv", size: "320x180", rate: "10", seconds: 3,
                                         codec: ["-c:v", "libx264", "-preset", "ultrafast", "-g", "5", "-pix_fmt", "yuv420p"],
                                         extra: ["-vf", "setsar=2/1"])

    /// Variable frame rate: a 30 fps source with irregular frames dropped (gaps of 33 to 100
    /// ms), H.264 with B-frames in Matroska (millisecond timestamps).
    public static let h264VFR = video("h264-vfr", ext: "mkv", rate: "30", seconds: 3,
                                      codec: ["-c:v", "libx264", "-preset", "veryfast", "-g", "20", "-bf", "2",
                                              "-pix_fmt", "yuv420p", "-fps_mode", "vfr"],
                                      extra: ["-vf", "select='not(eq(mod(n\\,7)\\,3))*not(eq(mod(n\\,5)\\,1))'"])
    /// A 10 s GOP: one key frame at the start and one at 10 s (12 s at 15 fps, B-frames).
    public static let longGOP = video("h264-10s-gop", ext: "mp4", size: "160x120", rate: "15", seconds: 12,
                                      codec: ["-c:v", "libx264", "-preset", "ultrafast", "-g", "150", "-keyint_min", "150",
                                              "-sc_threshold", "0", "-bf", "3", "-pix_fmt", "yuv420p"])
    /// Every frame a key frame (all-intra H.264).
    public static let allIntra = video("h264-all-intra", ext: "mp4", rate: "25", seconds: 2,
                                       codec: ["-c:v", "libx264", "-preset", "veryfast", "-g", "1", "-pix_fmt", "yuv420p"])
    /// A raw H.264 elementary stream: no container, no index, no timestamps of its own.
    public static let rawH264 = video("h264-raw", ext: "h264", rate: "25", seconds: 3,
                                      codec: ["-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-bf", "2",
                                              "-pix_fmt", "yuv420p", "-f", "h264"])

    public static let chaptersMetadata: String = {
        let text = """
        ;FFMETADATA1
        title=Reel chapter test
        artist=Reel

        [CHAPTER]
        TIMEBASE=1/1000
        START=0
        END=2000
        title=Opening

        [CHAPTER]
        TIMEBASE=1/1000
        START=2000
        END=6000
        title=Main part

        """
        let url = Fixtures.directory.appendingPathComponent("chapters.ffmeta")
        try? text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }()

    /// Every playable fixture, for sweeps.
    public static let seekable: [Self] = [h264MP4, h264OpenGOP, hevcMKV, vp9WebM, av1MP4, mpeg4AVI, h264TenBit]
}

extension Fixtures.Spec {
    /// Thirty seconds of MP3 with an ID3 cover picture (testsrc2 as JPEG), title, artist, album.
    /// Ogg keeps its tags in each stream's comment header, not in the container.
    public static let taggedOpus = Self(name: "tagged-opus", ext: "ogg", arguments: [
        "-f", "lavfi", "-i", "sine=frequency=330:duration=1", "-c:a", "libopus",
        "-metadata", "title=Tagged Song", "-metadata", "artist=Reel Band", "-metadata", "album=Reel Album",
    ])

    public static let songWithCover = Self(name: "song-with-cover", ext: "mp3", arguments: [
        "-f", "lavfi", "-i", "sine=frequency=330:duration=30",
        "-f", "lavfi", "-i", "testsrc2=size=300x300:duration=1",
        "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-b:a", "96k", "-c:v", "mjpeg", "-frames:v", "1",
        "-disposition:v", "attached_pic", "-id3v2_version", "3",
        "-metadata", "title=Test Song", "-metadata", "artist=Reel Band", "-metadata", "album=Reel Album",
    ])
}

extension Fixtures.Spec {
    /// Fifteen seconds of lossless H.264 of noise (about 25 Mbit/s) with sound: the engine's
    /// queues hold only a few seconds of it.
    public static let heavyVideo = Self(name: "heavy-noise-lossless", ext: "mp4", arguments: [
        "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=15,noise=alls=60:allf=t+u",
        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=15",
        "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p",
        "-c:a", "aac", "-b:a", "96k", "-shortest",
    ])
}
