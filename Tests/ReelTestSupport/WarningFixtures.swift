import Foundation

/// Media that plays only in part, for the engine's warnings (`PlayerWarning`): each file has one
/// stream FFmpeg here cannot use beside others it can. Made from a good file by changing a few
/// bytes of a stream's header, found by the marker the container keeps there, so each one
/// fails in FFmpeg's own way (no decoder, a decoder that refuses to open).
/// Threading: any test thread; generation is serialised per fixture (see `Fixtures`).
extension Fixtures {
    /// H.264 with a codec ID no decoder knows ("V_REEL/UNKNOWN!"), and the two sound streams of
    /// `aacAndOpus`: the video cannot be decoded, the sound plays.
    public static func unknownVideoCodec() throws -> String {
        try patched("unknown-video-codec", from: .aacAndOpus, at: "V_MPEG4/ISO/AVC") { bytes, at in
            bytes.replaceSubrange(at..<at + 15, with: Data("V_REEL/UNKNOWN!".utf8))
        }
    }

    /// Theora whose identification header says the picture is 0 macroblocks wide, with Vorbis
    /// sound: FFmpeg's Theora decoder refuses to open ("Invalid frame dimensions"), the sound
    /// plays.
    public static func refusedVideoDecoder() throws -> String {
        try patched("refused-video-decoder", from: .theoraWithVorbis, at: "\u{80}theora") { bytes, at in
            // After the packet type, "theora" and the 3-byte version: the width in macroblocks.
            let width = at + 7 + 3
            bytes.replaceSubrange(width..<width + 2, with: [0, 0])
        }
    }

    /// `aacAndOpus` with its Opus header claiming version 16: FFmpeg's Opus decoder refuses
    /// to open ("not yet implemented"), so stream 2 (French) cannot be played while stream 1
    /// (English, AAC) and the picture can.
    public static func refusedAudioStream() throws -> String {
        try patched("refused-audio-stream", from: .aacAndOpus, at: "OpusHead") { bytes, at in
            bytes[at + 8] = 16
        }
    }

    /// `base`'s file with `change` applied where `marker` first occurs.
    private static func patched(_ name: String, from base: Spec, at marker: String,
                                _ change: @escaping (inout Data, Int) -> Void) throws -> String {
        try derived(name, ext: base.ext, from: base) { source, destination in
            var bytes = try Data(contentsOf: URL(fileURLWithPath: source))
            guard let found = bytes.range(of: Data(marker.unicodeScalars.map { UInt8($0.value) })) else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: "no \(marker) in \(source)"])
            }
            change(&bytes, found.lowerBound)
            try bytes.write(to: URL(fileURLWithPath: destination))
        }
    }
}

extension Fixtures.Spec {
    /// H.264 with two sound streams in Matroska: AAC tagged English (stream 1, the default),
    /// Opus tagged French (stream 2); 2 s.
    public static let aacAndOpus = Self(name: "aac-and-opus", ext: "mkv", arguments: [
        "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2",
        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
        "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=2",
        "-map", "0:v", "-map", "1:a", "-map", "2:a",
        "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-pix_fmt", "yuv420p",
        "-c:a:0", "aac", "-b:a:0", "64k", "-metadata:s:a:0", "language=eng",
        "-c:a:1", "libopus", "-b:a:1", "48k", "-metadata:s:a:1", "language=fra",
        "-shortest",
    ])
    /// Theora with Vorbis sound in Matroska, 2 s.
    public static let theoraWithVorbis = video("theora-vorbis", ext: "mkv", rate: "25", seconds: 2,
                                               codec: ["-c:v", "libtheora", "-q:v", "5"],
                                               audio: sine(2, codec: ["-c:a", "libvorbis"]))
}
