import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// Each warning the engine can raise, provoked by real input: a video codec no decoder here
/// reads, decoders that refuse their stream's header, no sound server, a sink that does not
/// exist. The player goes on with what it can play and says why once, as a typed warning whose
/// details are checked against what FFmpeg's and PulseAudio's own tools say of the same input.
@Suite("Warnings")
struct WarningTests {
    @Test("A video stream no decoder here reads: the sound plays, and the warning names the stream and its codec")
    func videoCodecUnsupported() throws {
        let path = try Fixtures.unknownVideoCodec()
        let test = TestPlayer()
        try test.open(path)
        let codec = try Self.probedCodecs(path)[0]
        #expect(Self.warnings(test) == [.videoCodecUnsupported(stream: 0, codec: codec)])
        #expect(test.player.mediaInfo?.selectedVideoStream == nil && test.player.mediaInfo?.selectedAudioStream == 1)
        #expect(test.player.state == .ready)
    }

    @Test("A video decoder that refuses its stream: the sound plays, and the one warning carries FFmpeg's reason")
    func videoDecoderFailed() throws {
        let path = try Fixtures.refusedVideoDecoder()
        let test = TestPlayer()
        try test.open(path)
        let reason = try Self.ffmpegOpenError(path, stream: 0)
        let warnings = Self.warnings(test)
        // One warning: the stream is not also reported as a codec without a decoder.
        #expect(warnings.count == 1, "\(warnings)")
        guard case .videoDecoderFailed(let stream, let codec, let said)? = warnings.first else {
            Issue.record("not a refused video decoder: \(warnings)")
            return
        }
        let probed = try Self.probedCodecs(try Fixtures.path(.theoraWithVorbis))[0]
        #expect(stream == 0 && codec == probed)
        #expect(said.contains(reason), "FFmpeg says \(reason); the warning \(said)")
        #expect(test.player.mediaInfo?.selectedVideoStream == nil && test.player.mediaInfo?.selectedAudioStream == 1)
    }

    @Test("An audio decoder that refuses the stream chosen by language: the picture plays without sound")
    func audioDecoderFailed() throws {
        let path = try Fixtures.refusedAudioStream()
        let test = TestPlayer()
        test.player.setPreferredAudioLanguages(["fr"])
        try test.open(path)
        let reason = try Self.ffmpegOpenError(path, stream: 2)
        let warnings = Self.warnings(test)
        guard warnings.count == 1, case .audioDecoderFailed(let stream, let codec, let said) = warnings[0] else {
            Issue.record("not one refused audio decoder: \(warnings)")
            return
        }
        let probed = try Self.probedCodecs(try Fixtures.path(.aacAndOpus))[2]
        #expect(stream == 2 && codec == probed)
        #expect(said.contains(reason), "FFmpeg says \(reason); the warning \(said)")
        #expect(test.player.mediaInfo?.selectedAudioStream == nil && test.player.mediaInfo?.selectedVideoStream == 0)
    }

    @Test("Choosing an audio stream whose decoder refuses it: a warning, and the sound playing stays")
    func audioStreamRefused() throws {
        let path = try Fixtures.refusedAudioStream()
        let test = TestPlayer()
        try test.open(path)
        #expect(Self.warnings(test).isEmpty)
        #expect(test.player.mediaInfo?.selectedAudioStream == 1)
        let mark = test.recorder.count
        test.player.selectAudioStream(2)
        // Commands are applied in order: once the volume's answer is in, the choice was handled.
        test.player.setVolume(0.5)
        try test.waitFor(from: mark, "the volume after the choice") {
            if case .volumeChanged = $0 { return true }
            return false
        }
        let reason = try Self.ffmpegOpenError(path, stream: 2)
        let after = Array(test.recorder.all[mark...])
        let warnings = after.compactMap { if case .warning(let w) = $0 { w } else { nil } }
        guard warnings.count == 1, case .audioStreamRefused(let stream, let codec, let said) = warnings[0] else {
            Issue.record("not one refused audio stream: \(warnings)")
            return
        }
        let probed = try Self.probedCodecs(try Fixtures.path(.aacAndOpus))[2]
        #expect(stream == 2 && codec == probed)
        #expect(said.contains(reason), "FFmpeg says \(reason); the warning \(said)")
        #expect(!after.contains { if case .audioStreamChanged = $0 { return true }; return false })
        #expect(test.player.mediaInfo?.selectedAudioStream == 1)
    }

    @Test("No sound server at the configured address: playback goes on silently, and it is said once per player")
    func noSoundServer() throws {
        // A server answers where libpulse looks by itself: only the configured address is wrong.
        try SoundServer.ensure()
        let server = "unix:/nonexistent/reel-no-sound/native"
        let test = TestPlayer(audio: .pulse) { $0.soundServer = server }
        try test.open(try Fixtures.path(.h264MP4))
        // libpulse's reason, as its own client says it for the same address.
        let pactl = try Command.run(["pactl", "-s", server, "info"], check: false)
        let reason = try #require(pactl.errors.split(separator: "\n").first { $0.hasPrefix("Connection failure: ") }?
            .dropFirst("Connection failure: ".count), "pactl: \(pactl.errors)")
        #expect(Self.warnings(test) == [.noSoundServer(reason: String(reason))])
        #expect(test.player.statistics.audioOutput == "null")
        let mark = test.recorder.count
        try test.open(try Fixtures.path(.audioOnly))
        #expect(test.recorder.all[mark...].allSatisfy { if case .warning = $0 { false } else { true } }, "said again")
    }

    @Test("A sink that does not exist: playback goes on silently, and the warning carries the sound server's reason")
    func soundOutputFailed() throws {
        try SoundServer.ensure()
        let sink = "reel_no_such_sink"
        let test = TestPlayer(audio: .pulse) { $0.audioDevice = sink }
        try test.open(try Fixtures.path(.h264MP4))
        // The server's answer to its own client asking for the same sink.
        let pacat = try Command.run(["pacat", "--playback", "-d", sink, "/dev/null"], check: false)
        let reason = try #require(pacat.errors.split(separator: "\n").first { $0.hasPrefix("Stream error: ") }?
            .dropFirst("Stream error: ".count), "pacat: \(pacat.errors)")
        let warnings = Self.warnings(test)
        guard warnings.count == 1, case .soundOutputFailed(let said) = warnings[0] else {
            Issue.record("not one failed sound output: \(warnings)")
            return
        }
        #expect(said.hasSuffix(String(reason)), "the server says \(reason); the warning \(said)")
        #expect(test.player.statistics.audioOutput == "null")
    }

    @Test("Each warning has its own stable code and an English sentence with its details")
    func codesAndText() {
        let all: [PlayerWarning] = [
            .videoCodecUnsupported(stream: 0, codec: "vvc"),
            .videoDecoderFailed(stream: 0, codec: "theora", reason: "theora (Operation not permitted)"),
            .audioDecoderFailed(stream: 2, codec: "opus", reason: "opus (Not yet implemented)"),
            .audioStreamRefused(stream: 2, codec: "opus", reason: "opus (Not yet implemented)"),
            .noSoundServer(reason: "Connection refused"),
            .soundOutputFailed(reason: "cannot open a sound stream: No such entity"),
        ]
        #expect(all.map(\.code) == ["video_codec_unsupported", "video_decoder_failed", "audio_decoder_failed",
                                    "audio_stream_refused", "no_sound_server", "sound_output_failed"])
        #expect(all[0].description == "Video stream 0 uses vvc, which Reel cannot decode; playing the sound only")
        #expect(all[1].description.contains("Video stream 0") && all[1].description.contains("Operation not permitted"))
        #expect(all[4].description == "No sound server answers (Connection refused): playing without sound")
    }

    // MARK: Helpers

    static func warnings(_ test: TestPlayer) -> [PlayerWarning] {
        test.recorder.all.compactMap { if case .warning(let warning) = $0 { warning } else { nil } }
    }

    /// The codec of each stream, by index, as ffprobe names it.
    static func probedCodecs(_ path: String) throws -> [String] {
        let output = try Command.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name",
                                      "-of", "csv=p=0", path]).output
        return output.split(separator: "\n").map { String($0) }
    }

    /// What ffmpeg says when it cannot open the decoder of stream `stream` ("Error while
    /// opening decoder for input stream #0:N : REASON").
    static func ffmpegOpenError(_ path: String, stream: Int) throws -> String {
        let result = try Command.run(["ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-i", path,
                                      "-map", "0:\(stream)", "-f", "null", "-"], check: false)
        let prefix = "Error while opening decoder for input stream #0:\(stream) : "
        let line = try #require(result.errors.split(separator: "\n").first { $0.hasPrefix(prefix) }, "ffmpeg: \(result.errors)")
        return String(line.dropFirst(prefix.count))
    }
}
