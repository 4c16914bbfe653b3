import Foundation
@testable import ReelEngine
import ReelTestSupport
import Testing

/// Subtitles from files and streams, burned into pictures by `reel-tool frame` and read back
/// with OCR and pixel checks; encodings; damaged files; tracks, switching and delays.
@Suite("Subtitles")
struct SubtitleTests {
    static let background = (r: 0x30, g: 0x30, b: 0x30)

    static let twoCues = """
        1
        00:00:00,500 --> 00:00:02,000
        Hello World

        2
        00:00:02,500 --> 00:00:04,000
        Second <b>line</b> here

        """

    /// Burns the subtitles at `at` into a PNG; returns its path and the tool's JSON.
    static func burn(_ video: String, at: Double, _ extra: [String]) throws -> (png: String, json: [String: Any]) {
        let png = try SubtitleOracle.folder() + "/frame.png"
        let result = try ReelToolTests.tool(["frame", video, "--at", String(at), "--png", png] + extra)
        #expect(result.status == 0, "\(result.output) \(String(decoding: result.stderr, as: UTF8.self))")
        let json = try ReelToolTests.json(result.output.split(separator: "\n").first ?? "")
        return (png, json)
    }

    static func srt(_ text: String, name: String = "cues.srt") throws -> String {
        let path = try SubtitleOracle.folder() + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func cueTexts(_ decoded: DecodedSubtitles) -> [String] {
        decoded.cues.compactMap { cue in
            guard case .ass(let line) = cue.content else { return nil }
            // ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text
            return line.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false).last.map(String.init)
        }
    }

    @Test("An SRT cue is burned in where a plain subtitle belongs: OCR reads it, low and centred")
    func srtBurnIn() throws {
        let video = try Fixtures.path(.subtitleCanvas)
        let subs = try Self.srt(Self.twoCues)
        let (png, json) = try Self.burn(video, at: 1, ["--subtitles", subs])
        #expect((json["subtitle_track"] as? [String: Any])?["codec"] as? String == "subrip")
        #expect(try SubtitleOracle.ocr(png).contains("hello world"))
        let picture = try SubtitleOracle.picture(png)
        let area = try #require(picture.drawnArea(background: Self.background))
        #expect(area.y0 > picture.height * 3 / 4, "plain subtitles sit at the bottom")
        let centre = (area.x0 + area.x1) / 2
        #expect(abs(centre - picture.width / 2) < picture.width / 20, "and are centred")
        // Without --subtitles the same frame is untouched.
        let (plain, _) = try Self.burn(video, at: 1, [])
        #expect(try SubtitleOracle.picture(plain).drawnArea(background: Self.background) == nil)
    }

    @Test("SRT markup is rendered, not shown as text: <b> makes bold, no tags on screen")
    func markupRendered() throws {
        let video = try Fixtures.path(.subtitleCanvas)
        let subs = try Self.srt(Self.twoCues + """
            3
            00:00:04,500 --> 00:00:05,500
            <font color="#ff0000">Red</font> <script>alert(1)</script> {\\an8}

            """)
        let (png, _) = try Self.burn(video, at: 3, ["--subtitles", subs])
        let text = try SubtitleOracle.ocr(png)
        #expect(text.contains("second line here"), "\(text)")
        #expect(!text.contains("<"), "\(text)")
        let (red, _) = try Self.burn(video, at: 5, ["--subtitles", subs])
        let picture = try SubtitleOracle.picture(red)
        #expect(picture.count { r, g, b in r > 200 && g < 60 && b < 60 } > 50, "the font colour tag makes red text")
        #expect(!(try SubtitleOracle.ocr(red)).contains("font"))
    }

    @Test("A cue is on screen from its start to its end, to the frame (25 fps)")
    func cueTiming() throws {
        let video = try Fixtures.path(.subtitleCanvas)
        let subs = try Self.srt(Self.twoCues)
        // Frames are at multiples of 0.04 s; the cue runs from 0.5 (between frames 0.48 and
        // 0.52) to 2.0 (a frame's time, where it is already gone).
        for (time, shown) in [(0.44, false), (0.52, true), (1.0, true), (1.96, true), (2.0, false), (2.04, false)] {
            let (png, json) = try Self.burn(video, at: time, ["--subtitles", subs])
            #expect(abs((json["pts"] as? Double ?? -1) - time) < 0.001)
            let drawn = try SubtitleOracle.picture(png).drawnArea(background: Self.background) != nil
            #expect(drawn == shown, "at \(time) s the cue should be \(shown ? "shown" : "gone")")
        }
    }

    @Test("ASS keeps its own style: yellow text at the top; the size presets grow plain text")
    func assStyleAndSizes() throws {
        let video = try Fixtures.path(.subtitleCanvas)
        let folder = try SubtitleOracle.folder()
        try SubtitleTexts.yellowTopASS.write(toFile: folder + "/top.ass", atomically: true, encoding: .utf8)
        let (png, _) = try Self.burn(video, at: 1, ["--subtitles", folder + "/top.ass"])
        let picture = try SubtitleOracle.picture(png)
        let area = try #require(picture.drawnArea(background: Self.background))
        #expect(area.y1 < picture.height / 4, "alignment 8 puts it at the top")
        #expect(picture.count { r, g, b in r > 200 && g > 200 && b < 80 } > 100, "in yellow")
        #expect(try SubtitleOracle.ocr(png).contains("yellow words"))

        let subs = try Self.srt(Self.twoCues)
        var heights: [Int] = []
        for size in ["tiny", "medium", "large", "huge"] {
            let (sized, _) = try Self.burn(video, at: 1, ["--subtitles", subs, "--subtitle-size", size])
            let box = try #require(try SubtitleOracle.picture(sized).drawnArea(background: Self.background))
            heights.append(box.y1 - box.y0)
        }
        #expect(heights == heights.sorted() && Set(heights).count == 4, "\(heights)")
    }

    @Test("The media's own subtitle streams: listed with languages, burned in by --subtitle-track")
    func embeddedTracks() throws {
        let video = try Fixtures.path(.subtitleStreams)
        let (english, json) = try Self.burn(video, at: 1, ["--subtitle-track", "1"])
        #expect((json["subtitle_track"] as? [String: Any])?["language"] as? String == "eng")
        #expect(try SubtitleOracle.ocr(english).contains("english words"))
        let (french, _) = try Self.burn(video, at: 1, ["--subtitle-track", "2"])
        #expect(try SubtitleOracle.ocr(french).contains("yellow words"))
        let missing = try ReelToolTests.tool(["frame", video, "--at", "1", "--png", "/dev/null", "--subtitle-track", "7"])
        #expect(missing.status == 2)
        #expect(missing.output.contains("\"usage\""))
    }

    @Test("Over the network the media's own subtitle streams are read as it plays: listed at once, shown, burned in")
    func remoteEmbeddedTracks() throws {
        // Served by nginx under a name of its own (a fresh cache entry), so nothing is read from
        // a copy cached before.
        let server = try WebServer.shared()
        let url = try server.publish(try Fixtures.path(.subtitleStreams), as: "remote-subs-\(UUID().uuidString).mkv")
        let (english, json) = try Self.burn(url, at: 1, ["--subtitle-track", "1"])
        #expect((json["subtitle_track"] as? [String: Any])?["language"] as? String == "eng")
        #expect(try SubtitleOracle.ocr(english).contains("english words"))
        let (french, _) = try Self.burn(url, at: 1, ["--subtitle-track", "2"])
        let picture = try SubtitleOracle.picture(french)
        let area = try #require(picture.drawnArea(background: Self.background))
        #expect(area.y1 < picture.height / 4, "the ASS track's own style puts it at the top")
        #expect(try SubtitleOracle.ocr(french).contains("yellow words"))

        // Played: the tracks are there as soon as it loads, and the cue shows at its time.
        let test = TestPlayer()
        try test.open(url)
        let languages = test.player.subtitleTracks.compactMap(\.language).sorted()
        #expect(languages == ["eng", "fre"], "\(test.player.subtitleTracks)")
        test.player.selectSubtitleTrack(1)
        let mark = test.recorder.count
        test.player.play()
        try test.waitFor(from: mark, "playing past the cue's start") { event in
            if case .time(let position, _) = event { return position > 1.2 }
            return false
        }
        #expect(test.player.subtitleImage(at: 1.5, width: 960, height: 540) != nil, "no subtitle at 1.5 s")
        #expect(test.player.subtitleImage(at: 3.5, width: 960, height: 540) == nil, "a subtitle after the cue's end")
    }

    @Test("Every encoding is read without mojibake: UTF-8 (with and without BOM), UTF-16 LE/BE, Windows-1252, Windows-1251, GB18030")
    func encodings() throws {
        let folder = try SubtitleOracle.folder()
        let cases: [(charset: String, bom: [UInt8], text: String, detected: String)] = [
            ("UTF-8", [], "Café naïve déjà vu", "UTF-8"),
            ("UTF-8", [0xEF, 0xBB, 0xBF], "Grüße aus Köln", "UTF-8"),
            ("UTF-16LE", [0xFF, 0xFE], "Ελληνικά και English", "UTF-16LE"),
            ("UTF-16BE", [0xFE, 0xFF], "日本語の字幕", "UTF-16BE"),
            ("WINDOWS-1252", [], "Voilà, ça coûte très cher à Noël", "WINDOWS-1252"),
            ("WINDOWS-1251", [], "Привет, как дела? Всё хорошо", "WINDOWS-1251"),
            ("GB18030", [], "你好，世界。今天天气很好", "GB18030"),
        ]
        for (n, c) in cases.enumerated() {
            let path = folder + "/enc\(n).srt"
            try SubtitleOracle.write("1\n00:00:01,000 --> 00:00:02,000\n\(c.text)\n\n2\n00:00:03,000 --> 00:00:04,000\n\(c.text)\n", to: path,
                                     charset: c.charset, bom: c.bom)
            let decoded = try SubtitleLoader.loadFile(path, id: 1)
            #expect(decoded.track.charset == c.detected, "\(c.charset)")
            #expect(Self.cueTexts(decoded) == [c.text, c.text], "\(c.charset)")
        }
        // A person's choice wins over detection.
        let chosen = folder + "/chosen.srt"
        try SubtitleOracle.write("1\n00:00:01,000 --> 00:00:02,000\nÀÉÎ\n", to: chosen, charset: "ISO-8859-1")
        #expect(Self.cueTexts(try SubtitleLoader.loadFile(chosen, id: 1, charset: "ISO-8859-1")) == ["ÀÉÎ"])
    }

    @Test("Damaged files: parsed as far as possible, or a clear error; never a crash")
    func malformed() throws {
        // Overlapping cues, a missing number, a negative time, a huge cue.
        let huge = String(repeating: "word ", count: 20_000)
        let path = try Self.srt("""
            1
            00:00:01,000 --> 00:00:03,000
            First

            00:00:02,000 --> 00:00:04,000
            Overlapping

            3
            -00:00:01,000 --> 00:00:00,500
            Negative

            4
            00:00:05,000 --> 00:00:05,500
            \(huge)

            """)
        let decoded = try SubtitleLoader.loadFile(path, id: 1)
        let texts = Self.cueTexts(decoded)
        #expect(texts.contains("First"))
        #expect(texts.contains("Overlapping"))
        #expect(decoded.cues.allSatisfy { $0.end > $0.start })
        // Both overlapping cues are on screen at once.
        let video = try Fixtures.path(.subtitleCanvas)
        let (png, _) = try Self.burn(video, at: 2.5, ["--subtitles", path])
        let words = try SubtitleOracle.ocr(png)
        #expect(words.contains("first") && words.contains("overlapping"), "\(words)")
        // The huge cue renders (clipped) without failing.
        _ = try Self.burn(video, at: 5.2, ["--subtitles", path])

        // Binary junk, an empty file, a missing file, a video where subtitles were expected.
        let folder = try SubtitleOracle.folder()
        var junk = [UInt8](repeating: 0, count: 64 * 1024)
        var seed: UInt64 = 42
        for i in junk.indices { seed = seed &* 6364136223846793005 &+ 1442695040888963407; junk[i] = UInt8(seed >> 56) }
        try Data(junk).write(to: URL(fileURLWithPath: folder + "/junk.srt"))
        try Data().write(to: URL(fileURLWithPath: folder + "/empty.srt"))
        for (file, code) in [("junk.srt", "not_media_file"), ("empty.srt", "not_media_file"), ("missing.srt", "file_not_found")] {
            let result = try ReelToolTests.tool(["frame", video, "--at", "1", "--png", folder + "/x.png", "--subtitles", folder + "/" + file])
            #expect(result.status == 2, "\(file)")
            #expect(result.output.contains("\"\(code)\""), "\(file): \(result.output)")
        }
        #expect(throws: PlayerError.self) { try SubtitleLoader.loadFile(video, id: 1) }
        // Devices and folders are refused at once (reading /dev/zero would never end).
        for path in ["/dev/zero", folder] {
            #expect(throws: PlayerError.self) { try SubtitleLoader.loadFile(path, id: 1) }
        }
    }

    @Test("Tracks: files beside the video load with their language, preferred languages choose, switching keeps the position and says from and to")
    func tracksAndSwitching() throws {
        let folder = try SubtitleOracle.folder()
        let video = folder + "/film.mkv"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.subtitleStreams), toPath: video)
        try "1\n00:00:00,500 --> 00:00:03,000\nHola\n".write(toFile: folder + "/film.es.srt", atomically: true, encoding: .utf8)
        try "1\n00:00:00,500 --> 00:00:03,000\nOther\n".write(toFile: folder + "/other.srt", atomically: true, encoding: .utf8)

        let test = TestPlayer()
        test.player.setPreferredSubtitleLanguages(["fr", "en"])
        try test.open(video)
        try test.waitFor("the subtitle streams") { event in
            if case .subtitleTracksChanged = event { return !test.player.subtitlesLoading }
            return false
        }
        let tracks = test.player.subtitleTracks
        #expect(tracks.map(\.displayName).sorted() == ["English", "French", "Spanish"])
        #expect(test.player.selectedSubtitleTrack?.language == "fre", "the first preferred language wins")
        try test.seek(to: 1.5)
        let before = test.player.position
        let mark = test.recorder.count
        let english = try #require(tracks.first { $0.language == "eng" })
        test.player.selectSubtitleTrack(english.id)
        let changed = try test.waitFor(from: mark, "the subtitle change") { event in
            if case .subtitleChanged = event { return true }
            return false
        }
        guard case .subtitleChanged(let from, let to) = changed else { return }
        #expect(from?.language == "fre" && to?.language == "eng")
        #expect(test.player.position == before, "switching keeps the position")
        #expect(test.player.subtitleImage(at: 1.5, width: 960, height: 540) != nil)
        test.player.selectSubtitleTrack(nil)
        try test.waitFor(from: mark, "subtitles off") { event in
            if case .subtitleChanged(_, nil) = event { return true }
            return false
        }
        #expect(test.player.subtitleImage(at: 1.5, width: 960, height: 540) == nil)
    }

    @Test("Subtitle delay moves cues later or earlier; audio delay is kept and announced")
    func delays() throws {
        let subs = try Self.srt(Self.twoCues)
        let test = TestPlayer()
        try test.open(try Fixtures.path(.subtitleCanvas))
        let mark = test.recorder.count
        test.player.addSubtitleFile(subs)
        try test.waitFor(from: mark, "the file") { event in
            if case .subtitleChanged(_, let to) = event { return to != nil }
            return false
        }
        let size = (width: 960, height: 540)
        #expect(test.player.subtitleImage(at: 0.6, width: size.width, height: size.height) != nil)
        test.player.setSubtitleDelay(1.0)
        try test.waitFor(from: mark, "the delay") { event in
            if case .subtitleDelayChanged(1.0) = event { return true }
            return false
        }
        #expect(test.player.subtitleImage(at: 0.6, width: size.width, height: size.height) == nil)
        #expect(test.player.subtitleImage(at: 2.9, width: size.width, height: size.height) != nil)
        test.player.setSubtitleDelay(-0.45)
        try test.waitFor(from: mark, "the negative delay") { event in
            if case .subtitleDelayChanged(-0.45) = event { return true }
            return false
        }
        #expect(test.player.subtitleImage(at: 0.1, width: size.width, height: size.height) != nil)
        test.player.setAudioDelay(0.2)
        try test.waitFor(from: mark, "the audio delay") { event in
            if case .audioDelayChanged(0.2) = event { return true }
            return false
        }
        #expect(test.player.audioDelay == 0.2)
    }

    @Test("Another audio stream: the media continues from the same picture with it, without opening again")
    func audioStreamSwitch() throws {
        let test = TestPlayer()
        try test.open(try Fixtures.path(.twoAudioStreams))
        #expect(test.player.mediaInfo?.selectedAudioStream == 1)
        try test.waitFor("the subtitle streams") { event in
            if case .subtitleTracksChanged = event { return !test.player.subtitlesLoading }
            return false
        }
        let mark0 = test.recorder.count
        test.player.selectSubtitleTrack(3)
        try test.waitFor(from: mark0, "the subtitle choice") { event in
            if case .subtitleChanged(_, let to) = event { return to?.id == 3 }
            return false
        }
        let landed = try #require(try test.seek(to: 2.0))
        let mark = test.recorder.count
        test.player.selectAudioStream(2)
        let changed = try test.waitFor(from: mark, "the other sound") { event in
            if case .audioStreamChanged = event { return true }
            return false
        }
        guard case .audioStreamChanged(let info) = changed else { return }
        #expect(info.selectedAudioStream == 2)
        #expect(info.audioStream?.language == "ger")
        #expect(test.player.mediaInfo?.selectedAudioStream == 2)
        // Nothing is opened again: the picture stays where it was, the state stays ready, and
        // the subtitles are untouched.
        try test.waitFor(from: mark, "the sound brought to the picture") { event in
            if case .seekCompleted = event { return true }
            return false
        }
        #expect(abs((test.player.currentFrame?.pts ?? -1) - landed.pts) < 0.001, "the same picture")
        let states = test.recorder.all[mark...].compactMap { e -> PlayerState? in
            if case .stateChanged(_, let to) = e { return to } else { return nil }
        }
        #expect(states.isEmpty, "states went through \(states)")
        #expect(!test.recorder.all[mark...].contains { if case .mediaLoaded = $0 { return true }; return false }, "opened again")
        #expect(test.player.selectedSubtitleTrack?.id == 3, "the subtitle choice is kept")
    }

    @Test("Real bitmap subtitle streams: DVD's in Matroska, DVB's in MPEG-TS; drawn where their canvas says while shown, gone after")
    func realBitmapStreams() throws {
        for (name, file) in [("DVD", try Fixtures.dvdSubtitles()), ("DVB", try Fixtures.dvbSubtitles())] {
            let (shown, json) = try Self.burn(file, at: 1, ["--subtitle-track", "1"])
            let codec = (json["subtitle_track"] as? [String: Any])?["codec"] as? String
            #expect(codec == (name == "DVD" ? "dvd_subtitle" : "dvb_subtitle"), "\(name): \(codec ?? "no track")")
            #expect(try SubtitleOracle.ocr(shown).contains("bitmap words"), "\(name)")
            let picture = try SubtitleOracle.picture(shown)
            let area = try #require(picture.drawnArea(background: Self.background), "\(name): nothing drawn")
            // 60 px above the bottom of a 576-line canvas, centred.
            #expect(area.y0 > picture.height * 3 / 4, "\(name): \(area)")
            #expect(abs((area.x0 + area.x1) / 2 - picture.width / 2) < picture.width / 20, "\(name): \(area)")
            let (after, _) = try Self.burn(file, at: 3.5, ["--subtitle-track", "1"])
            #expect(try SubtitleOracle.picture(after).drawnArea(background: Self.background) == nil, "\(name): still shown after its end")
        }
    }

    @Test("Bitmap subtitles (PGS, DVB, VobSub) are scaled from their canvas to the picture's size and cleared by an empty one")
    func bitmapPlacement() throws {
        // A DVD-like 720×576 canvas with a red 100×50 rectangle near the bottom, from 1 s to 3 s.
        let red = SubtitleBitmap(x: 310, y: 500, width: 100, height: 50,
                                 rgba: [UInt8](repeating: 0, count: 100 * 50 * 4).enumerated().map { $0.offset % 4 == 0 || $0.offset % 4 == 3 ? 255 : 0 })
        let track = SubtitleTrack(id: 1, origin: .embedded(streamIndex: 1), language: nil, title: nil, codec: "dvd_subtitle",
                                  isBitmap: true, isDefault: false, charset: nil)
        let decoded = DecodedSubtitles(track: track, header: nil, canvasWidth: 720, canvasHeight: 576,
                                       cues: [SubtitleCue(start: 1, end: 3, content: .bitmaps([red]))], isStyled: false)
        let composer = SubtitleComposer()
        #expect(composer.image(of: decoded, at: 0.5, width: 360, height: 288, videoWidth: 720, videoHeight: 576, style: .init()) == nil)
        let image = try #require(composer.image(of: decoded, at: 2, width: 360, height: 288, videoWidth: 720, videoHeight: 576, style: .init()))
        let bounds = image.bounds
        #expect(bounds.x == 155 && bounds.y == 250 && bounds.width == 50 && bounds.height == 25, "\(bounds)")
        let centre = ((bounds.y + 12) * 360 + bounds.x + 25) * 4
        #expect(Array(image.pixels[centre..<centre + 4]) == [255, 0, 0, 255])
        #expect(composer.image(of: decoded, at: 3, width: 360, height: 288, videoWidth: 720, videoHeight: 576, style: .init()) == nil)
    }

    @Test("A file read again in a chosen encoding replaces the first reading in place")
    func rereadInChosenEncoding() throws {
        let folder = try SubtitleOracle.folder()
        let path = folder + "/russian.srt"
        try SubtitleOracle.write("1\n00:00:00,500 --> 00:00:03,000\nПривет, как дела? Всё хорошо\n", to: path, charset: "WINDOWS-1251")
        let test = TestPlayer()
        try test.open(try Fixtures.path(.subtitleCanvas))
        var mark = test.recorder.count
        test.player.addSubtitleFile(path, charset: "ISO-8859-5")
        try test.waitFor(from: mark, "the first reading") { event in
            if case .subtitleChanged(_, let to) = event { return to?.charset == "ISO-8859-5" }
            return false
        }
        let first = try #require(test.player.selectedSubtitleTrack)
        mark = test.recorder.count
        test.player.addSubtitleFile(path, charset: "WINDOWS-1251")
        try test.waitFor(from: mark, "the second reading") { event in
            if case .subtitleChanged(_, let to) = event { return to?.charset == "WINDOWS-1251" }
            return false
        }
        let tracks = test.player.subtitleTracks.filter { $0.origin == .external(path: path) }
        #expect(tracks.count == 1 && tracks.first?.id == first.id && tracks.first?.charset == "WINDOWS-1251")
    }

    @Test("The audio stream: by preferred language, or the one asked for the next opening only")
    func audioPreferences() throws {
        let clip = try Fixtures.path(.twoAudioStreams)
        let test = TestPlayer()
        test.player.setPreferredAudioLanguages(["fr", "de"])
        try test.open(clip)
        #expect(test.player.mediaInfo?.selectedAudioStream == 2, "German, the first preferred language it has")
        test.player.setPreferredAudioLanguages([])
        test.player.preferAudioStream(1)
        try test.open(clip)
        #expect(test.player.mediaInfo?.selectedAudioStream == 1)
        test.player.setPreferredAudioLanguages(["deu"])
        try test.open(clip)
        #expect(test.player.mediaInfo?.selectedAudioStream == 2, "the asked-for stream was for one opening only")
    }

    @Test("Audio delay: while the sound device drives the clock, the picture is that far ahead of the sound")
    func audioDelayMovesClock() throws {
        try SoundServer.ensure()
        let test = TestPlayer(audio: .pulse)
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        defer { presenter.stop() }
        try test.open(try Fixtures.path(.twoAudioStreams))
        try test.seek(to: 1.0)
        var mark = test.recorder.count
        test.player.setAudioDelay(0.5)
        try test.waitFor(from: mark, "the audio delay") { if case .audioDelayChanged(0.5) = $0 { return true }; return false }
        mark = test.recorder.count
        test.player.play()
        try test.waitForState(from: mark, "playing") { $0 == .playing }
        // The device plays from 1.0 s; until it reports, the clock holds at 1.0; from its first
        // report on, the clock is what it plays plus the delay: never between the two.
        let deadline = Date(timeIntervalSinceNow: 10)
        var position = test.player.position
        while position <= 1.0001 && Date() < deadline {
            usleep(2_000)
            position = test.player.position
        }
        // (The device counts whole samples: its first report may fall a hair before 1.0 s.)
        #expect(position >= 1.499, "the clock left 1.0 s for \(position) s, not 1.5 s or later")
    }

    @Test("MP4's mov_text stream and WebVTT files are shown like SRT (FFmpeg's decoders, the plain style)")
    func movTextAndWebVTT() throws {
        let (mp4, json) = try Self.burn(try Fixtures.path(.movTextStream), at: 1, ["--subtitle-track", "1"])
        #expect((json["subtitle_track"] as? [String: Any])?["codec"] as? String == "mov_text")
        #expect(try SubtitleOracle.ocr(mp4).contains("phone words"))
        let vtt = try SubtitleOracle.folder() + "/cues.vtt"
        try "WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nWeb <b>words</b> here\n".write(toFile: vtt, atomically: true, encoding: .utf8)
        let (png, vttJSON) = try Self.burn(try Fixtures.path(.subtitleCanvas), at: 1, ["--subtitles", vtt])
        #expect((vttJSON["subtitle_track"] as? [String: Any])?["codec"] as? String == "webvtt")
        let words = try SubtitleOracle.ocr(png)
        #expect(words.contains("web words here") && !words.contains("<"), "\(words)")
    }
}
