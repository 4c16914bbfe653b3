import Foundation
import ReelTestSupport
import Testing

/// `reel-tool` as scripts use it: the built binary, its JSON on stdout, its exit status.
@Suite("reel-tool")
struct ReelToolTests {
    /// The binary built next to this test bundle.
    static let binary = built("reel-tool")

    /// A program of this package, built next to this test bundle.
    static func built(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
    }

    static func tool(_ arguments: [String]) throws -> Command.Result {
        try run(binary, arguments)
    }

    /// Runs `program` (reel-tool, or reel-bench and the reel-tool it starts) as scripts do.
    static func run(_ program: String, _ arguments: [String]) throws -> Command.Result {
        // XDG_CACHE_HOME: the stream cache of URLs played here stays under the fixtures.
        try Command.run([program] + arguments, environment: [
            "REEL_FFMPEG_LOG": "quiet",
            "XDG_CACHE_HOME": Fixtures.directory.appendingPathComponent("tool-cache").path,
        ], check: false)
    }

    static func json(_ line: Substring) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// Plays that stop after a given time of playing, each a process of its own, started
    /// together by whichever of their tests asks first: they spend their seconds waiting for
    /// the clock, and each test judges its own output. (`play --json` plays alone: it checks
    /// that no picture was dropped.)
    static let plays = Once { () throws -> [String: Result<Command.Result, Error>] in
        let main = try Fixtures.path(.longSmall), clip = try Fixtures.path(.videoOnly)
        try SoundServer.ensure()
        let runs: [(String, [String], [String: String])] = [
            // 1.5 s of the film, the 2 s clip, then a little more film.
            ("interstitial", ["play", main, "--audio", "null", "--json", "--exit-after", "5",
                              "--interstitial", "\(clip)@1.5"], [:]),
            ("limits", ["play", try Fixtures.path(.h264MP4), "--audio", "null", "--json",
                        "--seek-to", "2", "--exit-after", "0.5"], [:]),
            ("no sound server", ["play", try Fixtures.path(.h264MP4), "--json", "--exit-after", "1"],
             ["PULSE_SERVER": "unix:/nonexistent/reel-no-sound"]),
            // libpulse takes the sink from PULSE_SINK when the player names none.
            ("no such sink", ["play", try Fixtures.path(.h264MP4), "--json", "--exit-after", "1"],
             ["PULSE_SINK": "reel_no_such_sink"]),
        ]
        let results = AtOnce.map(runs.map { [$0.0] + $0.1 }) { run -> Command.Result in
            let environment = runs.first { $0.0 == run[0] }!.2
            if environment.isEmpty { return try tool(Array(run.dropFirst())) }
            return try Command.run([binary] + run.dropFirst(), environment: environment, check: false)
        }
        return Dictionary(uniqueKeysWithValues: zip(runs.map(\.0), results))
    }

    @Test("info prints one JSON object with streams, duration, title and chapters")
    func info() throws {
        let result = try Self.tool(["info", try Fixtures.path(.withChapters)])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 1)
        let info = try Self.json(lines[0])
        #expect(info["title"] as? String == "Reel chapter test")
        #expect(abs((info["duration"] as? Double ?? 0) - 6) < 0.1)
        let chapters = try #require(info["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["title"] as? String } == ["Opening", "Main part"])
        #expect(abs((chapters[1]["start"] as? Double ?? 0) - 2) < 0.01)
        let streams = try #require(info["streams"] as? [[String: Any]])
        let video = try #require(streams.first { $0["type"] as? String == "video" })
        #expect(video["codec"] as? String == "h264")
        #expect(video["width"] as? Int == 160)
        #expect(video["height"] as? Int == 120)
        #expect(video["fps"] as? Double == 10)
    }

    @Test("info reports audio streams: sample rate and channels")
    func infoAudio() throws {
        let result = try Self.tool(["info", try Fixtures.path(.h264OpenGOP)])
        let info = try Self.json(result.output.split(separator: "\n")[0])
        let streams = try #require(info["streams"] as? [[String: Any]])
        let audio = try #require(streams.first { $0["type"] as? String == "audio" })
        #expect(audio["codec"] as? String == "ac3")
        #expect(audio["sample_rate"] as? Int == 48000)
        #expect(audio["channels"] as? Int == 6)
        let video = try #require(streams.first { $0["type"] as? String == "video" })
        #expect(abs((video["fps"] as? Double ?? 0) - 23.976) < 0.001)
    }

    @Test("frame --md5 prints the hash ffmpeg's framemd5 has for that frame, and its index")
    func frameMD5() throws {
        let path = try Fixtures.path(.h264MP4)
        let oracle = try FrameMD5.of(path)
        for target in oracle.targets(count: 3, seed: 5) {
            let result = try Self.tool(["frame", path, "--at", String(target), "--md5"])
            #expect(result.status == 0, "\(result.errors)")
            let frame = try Self.json(result.output.split(separator: "\n")[0])
            let expected = oracle.frame(at: target)
            #expect(frame["md5"] as? String == expected.md5)
            #expect(frame["index"] as? Int == oracle.entries.firstIndex { $0.md5 == expected.md5 })
            #expect(abs((frame["pts"] as? Double ?? -1) - expected.pts) < 0.0001)
        }
    }

    @Test("frame --png writes an RGB PNG of the frame at full size")
    func framePNG() throws {
        let out = Fixtures.directory.appendingPathComponent("tool-frame-\(getpid()).png").path
        defer { unlink(out) }
        let result = try Self.tool(["frame", try Fixtures.path(.h264MP4), "--at", "1.5", "--png", out])
        #expect(result.status == 0, "\(result.errors)")
        let probe = try Command.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height,pix_fmt",
                                     "-of", "csv=p=0", out]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(probe == "png,640,360,rgb24")
    }

    @Test("frame --png of a video with a display rotation is turned as FFmpeg turns it")
    func framePNGRotated() throws {
        let rotated = try Fixtures.derived("rotated-90", ext: "mp4", from: .videoOnly) { source, destination in
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", source,
                             "-c", "copy", "-metadata:s:v:0", "rotate=90", "-f", "mp4", destination])
        }
        let out = Fixtures.directory.appendingPathComponent("tool-frame-rotated-\(getpid()).png").path
        let turned = out + ".ffmpeg.png", wrong = out + ".wrong.png"
        defer { for file in [out, turned, wrong] { unlink(file) } }
        let result = try Self.tool(["frame", rotated, "--at", "1", "--png", out])
        #expect(result.status == 0, "\(result.errors)")
        let rotation = try Self.json(result.output.split(separator: "\n")[0])["rotation"] as? Int
        #expect(rotation == 90 || rotation == 270, "the frame's rotation reads \(String(describing: rotation))")
        let probe = try Command.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height",
                                     "-of", "csv=p=0", out]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(probe == "240,320", "the PNG is \(probe), not the upright 240×320")
        // FFmpeg turns the planes itself (autorotate), then converts as the tool does (BT.601
        // limited, bicubic, left-sited chroma — which the turn moves to the bottom); frame 30 is
        // the one at 1 s (30 fps).
        let scale = "in_color_matrix=bt601:in_range=tv:out_range=pc:flags=bicubic+accurate_rnd+full_chroma_int"
            + ":in_h_chr_pos=128:in_v_chr_pos=256"
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", rotated,
                         "-vf", "select=eq(n\\,30),scale=\(scale),format=gbrp,scale,format=rgb24",
                         "-frames:v", "1", turned])
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", turned,
                         "-vf", "transpose=clock,transpose=clock", wrong])
        func psnr(_ a: String, _ b: String) throws -> Double {
            let r = try Command.run(["ffmpeg", "-hide_banner", "-nostdin", "-i", a, "-i", b, "-lavfi",
                                     "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr", "-f", "null", "-"])
            let text = r.errors.components(separatedBy: "average:").last ?? ""
            return Double(text.prefix { !$0.isWhitespace }) ?? (text.hasPrefix("inf") ? .infinity : 0)
        }
        let right = try psnr(out, turned), opposite = try psnr(out, wrong)
        #expect(right >= 35, "against FFmpeg's turned frame: \(right) dB")
        #expect(opposite < 20, "against the frame turned the other way: \(opposite) dB")
    }

    @Test("play --interstitial plays the clip at its time and the main item goes on from there")
    func playWithInterstitial() throws {
        let main = try Fixtures.path(.longSmall)
        let result = try Self.plays.get()["interstitial"]!.get()
        #expect(result.status == 0, "\(result.errors)")
        let lines = try result.output.split(separator: "\n").map(Self.json)
        let events = lines.compactMap { $0["event"] as? String }
        let started = try #require(lines.first { $0["event"] as? String == "interstitial_started" })
        #expect(started["at"] as? Double == 1.5 && started["index"] as? Int == 0)
        #expect(events.contains("interstitial_ended"), "events: \(events)")
        let states = lines.filter { $0["event"] as? String == "state" }.map { "\($0["from"]!)→\($0["to"]!)" }
        #expect(states.contains("playing→suspended") && states.contains("suspended→playing"), "states: \(states)")
        let bad = try Self.tool(["play", main, "--interstitial", "clip-without-time.mp4"])
        #expect(bad.status == 2 && bad.output.contains("usage"), "\(bad.output)")
    }

    @Test("Failures print one JSON error line and exit 2", arguments: [
        (["info", "/nonexistent/clip.mp4"], "file_not_found"),
        (["frame", "/nonexistent/clip.mp4", "--at", "1"], "file_not_found"),
        (["play", "gopher://example.com/x", "--audio", "null"], "unsupported_source"),
        (["info"], "usage"),
        (["frame", "x.mp4", "--at", "soon"], "usage"),
    ])
    func failures(_ arguments: [String], _ code: String) throws {
        let result = try Self.tool(arguments)
        #expect(result.status == 2)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 1, "\(result.output)")
        let error = try #require(try Self.json(lines[0])["error"] as? [String: Any])
        #expect(error["code"] as? String == code)
        #expect(!(error["message"] as? String ?? "").isEmpty)
    }

    @Test("frame on audio-only media says there is no video")
    func frameWithoutVideo() throws {
        let result = try Self.tool(["frame", try Fixtures.path(.audioOnly), "--at", "1"])
        #expect(result.status == 2)
        let error = try #require(try Self.json(result.output.split(separator: "\n").last!)["error"] as? [String: Any])
        #expect(error["code"] as? String == "no_playable_stream")
    }

    @Test("play --json prints events, ticks and a summary, and ends")
    func playJSON() throws {
        let result = try Self.tool(["play", try Fixtures.path(.videoOnly), "--audio", "null", "--json"])
        #expect(result.status == 0, "\(result.errors)")
        let events = try result.output.split(separator: "\n").map(Self.json)
        let names = events.compactMap { $0["event"] as? String }
        for expected in ["state", "duration", "first_frame", "tick", "played_to_end", "summary"] {
            #expect(names.contains(expected), "no \(expected) event in \(names)")
        }
        let summary = try #require(events.last)
        #expect(summary["outcome"] as? String == "ended")
        #expect(summary["frames_shown"] as? Int == 60)
        #expect(summary["frames_dropped"] as? Int == 0)
        #expect(summary["drift_ms_p95"] is Double)
        let tick = try #require(events.first { $0["event"] as? String == "tick" && $0["shown_pts"] is Double })
        for key in ["clock", "shown_pts", "drift_ms", "frames_dropped"] { #expect(tick[key] != nil, "tick lacks \(key)") }
    }

    @Test("play --seek-to and --exit-after stop where asked")
    func playLimits() throws {
        let result = try Self.plays.get()["limits"]!.get()
        #expect(result.status == 0, "\(result.errors)")
        let events = try result.output.split(separator: "\n").map(Self.json)
        let summary = try #require(events.last)
        #expect(summary["outcome"] as? String == "stopped")
        let firstFrame = try #require(events.first { $0["event"] as? String == "first_frame" })
        #expect(abs((firstFrame["pts"] as? Double ?? 0) - 2) < 0.04)
    }

    @Test("play survives SIGTERM and still prints its summary")
    func playTerminated() throws {
        let out = Fixtures.directory.appendingPathComponent("tool-term-\(getpid()).log").path
        defer { unlink(out) }
        let pid = try Command.spawnDetached([Self.binary, "play", try Fixtures.path(.h264MP4), "--audio", "null", "--json"],
                                            log: out)
        // Stopped while playing: once its first picture is shown (the output file is appended
        // to line by line).
        let deadline = Date(timeIntervalSinceNow: 30)
        while Date() < deadline, Command.isRunning(pid),
              !((try? String(contentsOfFile: out, encoding: .utf8))?.contains("\"first_frame\"") ?? false) {
            usleep(20_000)
        }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect((status & 0x7f) == 0, "died by signal \(status & 0x7f)")
        let log = try String(contentsOfFile: out, encoding: .utf8)
        let summary = try Self.json(try #require(log.split(separator: "\n").last { $0.contains("summary") }))
        #expect(summary["outcome"] as? String == "interrupted")
    }

    @Test("A reader that goes away does not kill the tool by a signal")
    func closedPipe() throws {
        let script = "\(Command.shellQuote(Self.binary)) play \(Command.shellQuote(try Fixtures.path(.h264MP4))) "
            + "--audio null --json | head -1 >/dev/null; echo ${PIPESTATUS[0]}"
        let status = try Command.run(["bash", "-c", script]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(status == "2", "exit status \(status) (128+n means killed by signal n)")
    }

    @Test("Without a sound server, or with a sink that does not exist, play goes on silently and says so once", arguments: [
        ("no sound server", "no_sound_server"), ("no such sink", "sound_output_failed"),
    ])
    func silentWhenSoundFails(_ run: String, _ code: String) throws {
        let result = try Self.plays.get()[run]!.get()
        #expect(result.status == 0, "\(result.errors)")
        let events = try result.output.split(separator: "\n").map(Self.json)
        let warnings = events.filter { $0["event"] as? String == "warning" }
        #expect(warnings.count == 1)
        #expect(warnings.first?["code"] as? String == code, "\(warnings)")
        let message = warnings.first?["message"] as? String ?? ""
        #expect(message.contains("without sound"), "\(message)")
        let summary = try #require(events.last)
        #expect(summary["audio_output"] as? String == "null")
        #expect((summary["frames_shown"] as? Int ?? 0) > 20)
    }
}

