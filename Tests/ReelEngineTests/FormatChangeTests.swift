import Foundation
import ReelTestSupport
import ReelEngine
import Testing

/// Pictures whose size or pixel format changes mid-stream (a TV recording across an encoder
/// change, joined files): every picture shown after a change has the new format and is the
/// one FFmpeg decodes there, the clock goes on, and seeks land in every segment.
@Suite("Mid-stream format changes")
struct FormatChangeTests {
    static let joinedFiles: [Fixtures.Spec.Joined] = [
        Fixtures.Spec.sizeChanges, Fixtures.Spec.pixelFormatChanges, Fixtures.Spec.frameRateChanges,
    ]
    /// And pieces that each start their clock again: played, their pictures follow one another
    /// (seeking by time cannot tell their equal timestamps apart, so they are not sought in).
    static let playedFiles = joinedFiles + [Fixtures.Spec.clockResets, Fixtures.Spec.clockResetsWithSound]

    /// What playing a joined file through left behind, judged by `playsThrough`.
    struct PlayedThrough: Sendable {
        let frames: [ShownFrame]
        let statistics: PlaybackStatistics
        let position: Double
    }

    /// One piece of the suite's work done at once with the others. Threading: a value type.
    enum Job: Sendable {
        case play(Fixtures.Spec.Joined)
        case sound
        case oracles
    }

    /// The suite's real-time plays: every joined file's pictures, and the file whose sound
    /// changes format through the sound server. Each spends its seconds waiting for the clock,
    /// so all play at once, started by whichever of their two tests asks first; each test
    /// judges its own. Meanwhile FFmpeg decodes the segments' files for the oracles every test
    /// here judges by (kept for the process), one file after another so that it takes one core
    /// at most beside the plays; an oracle that fails is made again, and fails, where a test
    /// asks for it.
    static let plays = Once { () -> (through: [Result<PlayedThrough, Error>], sound: Result<PlayedThrough, Error>) in
        let jobs = FormatChangeTests.playedFiles.map(Job.play) + [.sound, .oracles]
        let outcomes = AtOnce.map(jobs) { job -> PlayedThrough? in
            switch job {
            case .play(let joined): return try FormatChangeTests.playThrough(joined)
            case .sound: return try FormatChangeTests.playSoundFormatChanges()
            case .oracles:
                for joined in FormatChangeTests.playedFiles + [Fixtures.Spec.audioFormatChanges] { _ = try? JoinedOracle.of(joined) }
                return nil
            }
        }
        let played = outcomes.dropLast().map { outcome in outcome.map { $0! } }
        return (Array(played.dropLast()), played.last!)
    }

    @Test("Plays through every change: each picture shown is FFmpeg's, at its new size and format, in order (every file at once)")
    func playsThrough() throws {
        let outcomes = try Self.plays.get().through
        for (joined, outcome) in zip(Self.playedFiles, outcomes) {
            do {
                try Self.judge(joined, try outcome.get())
            } catch {
                Issue.record("\(joined): \(error)")
            }
        }
    }

    static func playThrough(_ joined: Fixtures.Spec.Joined) throws -> PlayedThrough {
        let path = try joined.path
        let shown = ReelTestSupport.Locked([ShownFrame]())
        let test = TestPlayer(audio: .null) { $0.autoplay = true }
        let presenter = HeadlessPresenter(player: test.player) { frame in
            shown.withLock { $0.append(ShownFrame(frame)) }
        }
        presenter.start()
        defer { presenter.stop() }
        try test.open(path)
        try test.waitForState("the end") { $0 == .ended }
        presenter.stop()
        return PlayedThrough(frames: shown.value, statistics: test.player.statistics, position: test.player.position)
    }

    static func judge(_ joined: Fixtures.Spec.Joined, _ played: PlayedThrough) throws {
        let oracle = try JoinedOracle.of(joined)
        let frames = played.frames
        let stats = played.statistics
        #expect(stats.framesDecoded == oracle.frames.count, "\(joined): decoded \(stats.framesDecoded) of \(oracle.frames.count)")
        #expect(stats.framesShown + stats.framesDropped == stats.framesDecoded, "\(joined): \(stats.framesShown) shown + \(stats.framesDropped) dropped")
        #expect(stats.decodeErrors == 0, "\(joined): \(stats.decodeErrors) decode errors")
        #expect(frames.map(\.pts) == frames.map(\.pts).sorted() && Set(frames.map(\.pts)).count == frames.count,
                "\(joined): pictures shown out of order or twice: \(frames.map(\.pts))")
        let rateChanges = Set(joined.segments.map(\.rate)).count > 1
        for frame in frames {
            let expected = oracle.frame(at: frame.pts)
            // Frame numbers count at the stream's rate; where the rate changes they would repeat
            // or skip, so from there on pictures have none.
            let number = oracle.frames.firstIndex { $0.pts == expected.pts }
            #expect(frame.index == number || (rateChanges && frame.index == nil),
                    "\(joined): pts \(frame.pts) is numbered \(frame.index.map(String.init) ?? "nil"), FFmpeg's frame \(number ?? -1)")
            #expect(abs(frame.pts - expected.pts) < 0.0005, "shown pts \(frame.pts) is no frame of FFmpeg's (nearest \(expected.pts))")
            #expect(frame.size == expected.size && frame.format == expected.format,
                    "\(joined): pts \(frame.pts): \(frame.size) \(frame.format), FFmpeg \(expected.size) \(expected.format)")
            #expect(frame.md5 == expected.md5, "\(joined): pts \(frame.pts) (\(expected.size) \(expected.format)) differs from FFmpeg's")
        }
        // Each segment was on screen: its pictures, in its format.
        for (i, segment) in oracle.segments.enumerated() {
            let inSegment = frames.filter { $0.pts >= segment.start && $0.pts < segment.end }
            #expect(inSegment.count > segment.frameCount / 2,
                    "\(joined): segment \(i + 1) (\(segment.size) \(segment.format)): \(inSegment.count) of \(segment.frameCount) shown")
        }
        // The clock went on through every change, to the end of the last segment.
        let end = try #require(oracle.segments.last).end
        #expect(abs(played.position - end) < 0.25, "\(joined): ended at \(played.position) of \(end)")
    }

    @Test("Exact seeks into each segment land on FFmpeg's frame, at that segment's size and format",
          arguments: joinedFiles)
    func exactSeeksInEverySegment(_ joined: Fixtures.Spec.Joined) throws {
        let path = try joined.path
        let oracle = try JoinedOracle.of(joined)
        let test = TestPlayer()
        try test.open(path)
        // In each segment: its first picture, the middle of its first second (before its
        // second key frame), and later (each away from frame boundaries at 25 and 50 fps); then back again, across the changes both ways.
        var targets: [Double] = []
        for segment in oracle.segments {
            let first = oracle.frames.first { $0.pts >= segment.start }!
            targets += [first.pts + 0.01, segment.start + 0.51, segment.start + 1.33]
        }
        targets += targets.reversed()
        for target in targets {
            let frame = try #require(try test.seek(to: target, mode: .exact))
            let expected = oracle.frame(at: target)
            #expect(frame.pts == expected.pts || abs(frame.pts - expected.pts) < 0.0005,
                    "seek to \(target) showed pts \(frame.pts), FFmpeg's frame is at \(expected.pts)")
            #expect(frame.width == expected.width && frame.height == expected.height
                    && frame.format.description == expected.format,
                    "seek to \(target): \(frame.width)x\(frame.height) \(frame.format), FFmpeg \(expected.size) \(expected.format)")
            #expect(frame.md5() == expected.md5, "seek to \(target) (pts \(frame.pts)) differs from FFmpeg's frame")
        }
    }

    @Test("reel-tool play --max-speed decodes as many frames as ffprobe counts", arguments: playedFiles)
    func toolCountsEveryFrame(_ joined: Fixtures.Spec.Joined) throws {
        let path = try joined.path
        let counted = try Command.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                                       "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path]).output
        let expected = try #require(counted.split(whereSeparator: \.isNewline).compactMap { Int($0) }.first)
        let result = try ReelToolTests.tool(["play", path, "--max-speed", "--json"])
        #expect(result.status == 0, "\(result.errors)")
        let summary = try ReelToolTests.json(try #require(result.output.split(separator: "\n").last))
        #expect(summary["frames_decoded"] as? Int == expected, "\(summary)")
        #expect(summary["decode_errors"] as? Int == 0)
        #expect(summary["outcome"] as? String == "ended")
    }

    static func playSoundFormatChanges() throws -> PlayedThrough {
        try SoundServer.ensure()
        let test = TestPlayer(audio: .pulse) { $0.autoplay = true }
        let presenter = HeadlessPresenter(player: test.player)
        presenter.start()
        defer { presenter.stop() }
        try test.open(try Fixtures.Spec.audioFormatChanges.path)
        try test.waitForState("the end") { $0 == .ended }
        return PlayedThrough(frames: [], statistics: test.player.statistics, position: test.player.position)
    }

    @Test("Sound that changes format mid-stream (stereo 48 kHz, 5.1, 44.1 kHz) plays to the end with every picture")
    func soundFormatChanges() throws {
        let played = try Self.plays.get().sound.get()
        let oracle = try JoinedOracle.of(Fixtures.Spec.audioFormatChanges)
        let stats = played.statistics
        #expect(stats.audioOutput == "pulse", "sound went to \(stats.audioOutput ?? "nowhere")")
        // Six seconds of sound (at least five: the segments' AAC start and end padding aside).
        let decoded = Double(stats.audioSamplesDecoded) / Double(stats.audioFormat?.sampleRate ?? 48000)
        #expect(decoded > 5, "\(decoded) s of sound decoded")
        #expect(stats.framesDecoded == oracle.frames.count)
        #expect(stats.framesShown + stats.framesDropped == stats.framesDecoded)
        let end = try #require(oracle.segments.last).end
        #expect(abs(played.position - end) < 0.25, "ended at \(played.position) of \(end)")
    }

    @Test("Previews after a change have the new picture's shape and FFmpeg's picture")
    func previewsInEverySegment() throws {
        let joined = Fixtures.Spec.sizeChanges
        let path = try joined.path
        let oracle = try JoinedOracle.of(joined)
        let segmentPaths = try joined.segmentPaths
        let keys = try ThumbnailOracle.keyFrames(path)
        let recorder = ThumbnailRecorder()
        let provider = ThumbnailProvider(source: MediaSource(path: path), size: .height(90), deliver: recorder.deliver)
        defer { provider.close() }
        for (i, segment) in oracle.segments.enumerated() {
            for t in [segment.start + 0.3, segment.start + 1.6] {
                let thumbnail = try recorder.ask(provider, t).outcome.get()
                let key = ThumbnailOracle.nearest(keys, to: thumbnail.frameTime)
                #expect(abs(key - thumbnail.frameTime) < 0.002, "at \(t) s: \(thumbnail.frameTime) is not a key frame (\(keys))")
                // The key frame's own segment decides the shape (a GOP away may be the next one).
                let shown = oracle.frame(at: thumbnail.frameTime)
                let width = Int((Double(shown.width) / Double(shown.height) * 90).rounded())
                #expect(abs(thumbnail.width - width) <= 1 && thumbnail.height == 90,
                        "at \(t) s: \(thumbnail.width)×\(thumbnail.height) for a \(shown.size) picture")
                let own = try #require(oracle.segments.lastIndex { $0.start <= thumbnail.frameTime + 0.0005 })
                let offset = Double(own * 2)  // two-second segments: a segment's file counts from its own start
                let right = try ThumbnailOracle.picture(segmentPaths[own], at: thumbnail.frameTime - offset,
                                                        width: thumbnail.width, height: thumbnail.height)
                let psnr = ThumbnailOracle.psnr(thumbnail.pixels, right)
                #expect(psnr >= ThumbnailTests.samePicture,
                        "segment \(i + 1) at \(t) s: \(psnr) dB against FFmpeg's key frame at \(thumbnail.frameTime)")
            }
        }
    }
}

/// What the presenter saw of one picture (the frame itself is not kept: a whole file of them
/// would hold the decoder's pictures). Threading: a value type.
struct ShownFrame: Sendable {
    let pts: Double
    let index: Int?
    let size: String
    let format: String
    let md5: String

    init(_ frame: VideoFrame) {
        pts = frame.pts
        index = frame.index
        size = "\(frame.width)x\(frame.height)"
        format = frame.format.description
        md5 = frame.md5()
    }
}

/// FFmpeg's own decode of a joined file, frame by frame, made from its segments' files:
/// `ffmpeg -f framemd5` of the joined file cannot serve (its filter graph scales and converts
/// every picture to the first one's size and format), and neither can ffprobe's timestamps of a
/// joined file whose pieces each start their clock again. Each segment starts on a key frame,
/// so its pictures decode the same alone as in the joined stream (framemd5 of its file, and
/// ffprobe for each frame's timestamp, size and format), and each segment's clock goes on from
/// the end of the one before (two seconds each).
/// Threading: immutable once made.
struct JoinedOracle: Sendable {
    struct Frame: Sendable {
        let pts: Double
        let width: Int
        let height: Int
        let format: String
        let md5: String
        var size: String { "\(width)x\(height)" }
    }

    struct Segment: Sendable {
        let start: Double
        let end: Double
        let size: String
        let format: String
        let frameCount: Int
    }

    let frames: [Frame]
    let segments: [Segment]

    /// Made once per joined file and test process: several tests judge by the same file's.
    private static let made = ReelTestSupport.Locked([String: JoinedOracle]())

    static func of(_ joined: Fixtures.Spec.Joined) throws -> JoinedOracle {
        if let oracle = made.value[joined.name] { return oracle }
        let oracle = try make(joined)
        made.withLock { $0[joined.name] = oracle }
        return oracle
    }

    private static func make(_ joined: Fixtures.Spec.Joined) throws -> JoinedOracle {
        var frames: [Frame] = []
        var segments: [Segment] = []
        var offset = 0.0
        for (segment, path) in zip(joined.segments, try joined.segmentPaths) {
            let shaped = try FrameMD5.shaped(path)
            guard let first = shaped.first else {
                throw Command.Failure(command: ["ffprobe", path], result: .init(status: -1, stdout: Data(), stderr: Data("no frames".utf8)))
            }
            frames += shaped.map { Frame(pts: $0.entry.pts + offset, width: $0.width, height: $0.height,
                                         format: $0.format, md5: $0.entry.md5) }
            segments.append(Segment(start: first.entry.pts + offset, end: offset + Double(segment.seconds),
                                    size: "\(first.width)x\(first.height)", format: first.format, frameCount: shaped.count))
            offset += Double(segment.seconds)
        }
        return JoinedOracle(frames: frames, segments: segments)
    }

    /// The frame whose display interval contains `time`.
    func frame(at time: Double) -> Frame {
        frames.last { $0.pts <= time + 0.0005 } ?? frames[0]
    }
}
