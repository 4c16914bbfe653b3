import Foundation
@testable import ReelEngine
import ReelTestSupport
import Testing

/// Hostile subtitle files, written here: a 50 MB line, invalid UTF-8, an ASS script with
/// 10,000 styles. Each is read beside a video (film.srt), by `reel-tool frame --subtitles`
/// (its peak memory measured by /usr/bin/time) and through the engine's loader; each shows
/// what it can or fails clearly, within bounded memory.
@Suite("Hostile subtitles")
struct HostileSubtitleTests {
    /// A guard far above what any of these takes when handled (under 300 MB); a 50 MB line
    /// drawn whole took 23 GB.
    static let memoryBound = 1 << 30

    /// `reel-tool frame` burning `subtitles` into the canvas at `at`: its exit status, JSON
    /// line, peak resident bytes, and the PNG.
    static func burn(_ video: String, at: Double, subtitles: String) throws
        -> (status: Int32, output: String, peak: Int, png: String) {
        let png = try SubtitleOracle.folder() + "/frame.png"
        let result = try Command.run(["/usr/bin/time", "-f", "peak-kb %M", ReelToolTests.binary, "frame", video,
                                      "--at", String(at), "--png", png, "--subtitles", subtitles],
                                     environment: ["REEL_FFMPEG_LOG": "quiet"], check: false)
        let errors = String(decoding: result.stderr, as: UTF8.self)
        let peakLine = errors.split(separator: "\n").last { $0.hasPrefix("peak-kb ") } ?? ""
        let peak = (Int(peakLine.dropFirst("peak-kb ".count)) ?? -1) * 1024
        return (result.status, result.output, peak, png)
    }

    /// The canvas video copied into a folder of its own as `film.mp4`.
    static func film() throws -> (folder: String, video: String) {
        let folder = try SubtitleOracle.folder()
        let video = folder + "/film.mp4"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.subtitleCanvas), toPath: video)
        return (folder, video)
    }

    /// Opens `video` and shows the subtitle file found beside it; returns the player.
    static func playBeside(_ video: String, subtitles: String) throws -> TestPlayer {
        let test = TestPlayer()
        try test.open(video)
        let listed = try test.waitFor("the file beside the video") { event in
            if case .subtitleTracksChanged(let tracks) = event {
                return tracks.contains { $0.origin == .external(path: subtitles) }
            }
            return false
        }
        guard case .subtitleTracksChanged(let tracks) = listed,
              let track = tracks.first(where: { $0.origin == .external(path: subtitles) }) else { return test }
        let mark = test.recorder.count
        test.player.selectSubtitleTrack(track.id)
        try test.waitFor(from: mark, "the file's track shown") { event in
            if case .subtitleChanged(_, let to) = event { return to?.id == track.id }
            return false
        }
        return test
    }

    @Test("A 50 MB line: cut, the cues around it shown, in bounded memory; one 50 MB line with no cue fails clearly")
    func fiftyMegabyteLine() throws {
        let (folder, video) = try Self.film()
        let path = folder + "/film.srt"
        let line = String(repeating: "word ", count: 10 << 20)
        try Data(("1\n00:00:00,000 --> 00:00:04,000\n" + line + "\n\n2\n00:00:01,000 --> 00:00:03,000\nSecond cue\n").utf8)
            .write(to: URL(fileURLWithPath: path))

        let burned = try Self.burn(video, at: 2, subtitles: path)
        #expect(burned.status == 0, "\(burned.output)")
        #expect(burned.peak > 0 && burned.peak < Self.memoryBound, "peak \(burned.peak >> 20) MB")
        #expect(burned.output.contains("\"codec\":\"subrip\""), "\(burned.output)")
        #expect(try SubtitleOracle.picture(burned.png).drawnArea(background: SubtitleTests.background) != nil)

        let decoded = try SubtitleLoader.loadFile(path, id: 1)
        let texts = SubtitleTests.cueTexts(decoded)
        #expect(texts.count == 2)
        #expect(texts.first.map { $0.hasPrefix("word word") && $0.utf8.count <= SubtitleLines.longest } == true,
                "\(texts.first?.utf8.count ?? -1) bytes")
        #expect(texts.last == "Second cue")

        let test = try Self.playBeside(video, subtitles: path)
        #expect(test.player.subtitleImage(at: 2, width: 960, height: 540) != nil)
        #expect(HostilePlaylistTests.residentBytes() < Self.memoryBound)

        // No line break at all: no cue can be found in it.
        let single = folder + "/single.srt"
        try Data(("1 00:00:00,000 --> 00:00:04,000 " + line).utf8).write(to: URL(fileURLWithPath: single))
        let refused = try Self.burn(video, at: 2, subtitles: single)
        #expect(refused.status == 2)
        #expect(refused.output.contains("\"not_media_file\""), "\(refused.output)")
        #expect(refused.peak > 0 && refused.peak < Self.memoryBound, "peak \(refused.peak >> 20) MB")
    }

    @Test("Invalid UTF-8 shows what it can: each bad byte becomes U+FFFD, the rest is exact")
    func invalidUTF8() throws {
        let (folder, video) = try Self.film()
        let path = folder + "/film.srt"
        var bytes = Data("1\n00:00:00,000 --> 00:00:02,000\nCafé crème brûlée, déjà vu\n\n".utf8)
        bytes += Data("2\n00:00:02,000 --> 00:00:03,000\nVoilà ".utf8) + Data([0xFF]) + Data(" l".utf8) + Data([0xE9])
        bytes += Data("t".utf8) + Data([0xC3]) + Data("\n\n3\n00:00:03,000 --> 00:00:05,000\nÇa marche bien\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        let decoded = try SubtitleLoader.loadFile(path, id: 1)
        #expect(decoded.track.charset == "UTF-8")
        #expect(SubtitleTests.cueTexts(decoded) == ["Café crème brûlée, déjà vu", "Voilà \u{FFFD} l\u{FFFD}t\u{FFFD}", "Ça marche bien"])

        let burned = try Self.burn(video, at: 4, subtitles: path)
        #expect(burned.status == 0, "\(burned.output)")
        #expect(try SubtitleOracle.ocr(burned.png).contains("marche bien"))
        let test = try Self.playBeside(video, subtitles: path)
        #expect(test.player.subtitleImage(at: 1, width: 960, height: 540) != nil)

        // Plain ASCII with bytes no encoding guess can read: Windows-1252 leaves 0x81 and 0x8D undefined.
        let ascii = folder + "/other.srt"
        try (Data("1\n00:00:00,000 --> 00:00:02,000\nGood line ".utf8) + Data([0x81, 0x8D]) + Data(" end\n".utf8))
            .write(to: URL(fileURLWithPath: ascii))
        #expect(SubtitleTests.cueTexts(try SubtitleLoader.loadFile(ascii, id: 2)) == ["Good line \u{FFFD}\u{FFFD} end"])
    }

    @Test("An ASS script with 10,000 styles loads; its events keep their own styles")
    func tenThousandStyles() throws {
        let (folder, video) = try Self.film()
        let path = folder + "/film.ass"
        var script = """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 960
            PlayResY: 540

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding

            """
        for i in 0..<10_000 {
            // The last style is three times the size of the others.
            script += "Style: S\(i),DejaVu Sans,\(i == 9_999 ? 90 : 30),&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1\n"
        }
        script += """

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:00.00,0:00:02.00,S0,,0,0,0,,First style
            Dialogue: 0,0:00:02.00,0:00:04.00,S9999,,0,0,0,,Last style

            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)

        let decoded = try SubtitleLoader.loadFile(path, id: 1)
        #expect(decoded.header?.contains("Style: S9999,") == true)
        #expect(SubtitleTests.cueTexts(decoded) == ["First style", "Last style"])

        let first = try Self.burn(video, at: 1, subtitles: path)
        let last = try Self.burn(video, at: 3, subtitles: path)
        for burned in [first, last] {
            #expect(burned.status == 0, "\(burned.output)")
            #expect(burned.peak > 0 && burned.peak < Self.memoryBound, "peak \(burned.peak >> 20) MB")
        }
        let small = try #require(try SubtitleOracle.picture(first.png).drawnArea(background: SubtitleTests.background))
        let large = try #require(try SubtitleOracle.picture(last.png).drawnArea(background: SubtitleTests.background))
        #expect(large.y1 - large.y0 > 2 * (small.y1 - small.y0), "small \(small), large \(large)")
        #expect(try SubtitleOracle.ocr(last.png).contains("last style"))

        let test = try Self.playBeside(video, subtitles: path)
        #expect(test.player.subtitleImage(at: 3, width: 960, height: 540) != nil)
    }
}
