import ArgumentParser
import Foundation
import ReelCommandLine
import ReelEngine

/// `reel-bench`: measures Reel's engine, `reel-tool play` or for `window` the `reel` app itself
/// (and, with --compare, ffmpeg or mpv in the same run), and prints one JSON line. The methodology
/// is in BENCHMARKS.md. Every failure ends in one JSON error line on stdout and exit status 2.
/// Threading: runs on the main thread; each bench blocks it until done.
struct ReelBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel-bench",
        abstract: "Measure decode throughput, exact seeks, startup, real-time play or the app's window; one JSON line.",
        discussion: """
            decode   video decode as fast as it goes, vs ffmpeg -f null (best of 3)
            seek     exact seeks while paused, vs mpv over IPC (30 random targets); then
                     dropped pictures in the first second after seeks while playing
            step     frame steps back and forward while paused, vs mpv frame-back-step and
                     frame-step (5 starts, 20 steps each way)
            scrub    a 10 s drag across the file at 60 updates/s: distinct pictures shown per
                     second and release to exact picture, vs mpv key-frame seeks (4 drags)
            click    a click on the scrubber where the pointer rested (the picture decoded
                     ahead) to the exact picture, vs a click without the rest and mpv's exact
                     seek (30 random targets, paused)
            startup  process start to first frame and exit, vs mpv (median of 10)
            play     real-time play via PulseAudio: CPU, RSS, drift, vs mpv
            level    20 s of real-time play with loudness levelling, vs the same without it:
                     CPU (3 pairs, alternating)
            window   the reel app on an X display: first frame, CPU playing and paused,
                     dropped frames, vs mpv --vo=gpu (median of 3)
            preview  hover thumbnails: request to picture, uncached (30 random positions) and
                     cached, vs one ffmpeg process per picture; playback with previews at 30/s
            stream   an http(s) URL: first frame, seek into what is not fetched, bytes for a play
                     and 20 seeks (--proxy-stats), vs mpv --cache=yes (scripts/stream-bench.sh)
            page     a web page's address to its video's first picture, yt-dlp finding it, vs mpv
                     through its ytdl hook (median of 5)
            queue    a clip of the file queued twice, heard from a null sink's monitor: the gap
                     at the seam and the sound's length, vs mpv playing the same two
            wakeups  the reel app on an X display, paused then playing: context switches of
                     all its threads per second over 10 s (--play-seconds), vs mpv --pause / mpv
            thumbnail  reel-thumbnailer -s SIZE on the file and any more named after it: time
                     and peak memory per file (median of 5), vs ffmpegthumbnailer -s SIZE;
                     then zzuf-damaged copies (--damaged-seeds): a clean end, and how long
            """,
        version: ReelVersion.string)

    enum Kind: String, CaseIterable, ExpressibleByArgument {
        case decode, seek, step, scrub, click, startup, play, level, window, preview, stream, page, queue, wakeups, thumbnail
    }

    @Argument(help: "decode, seek, step, scrub, click, startup, play, level, window, preview, stream, page, queue, wakeups or thumbnail.")
    var kind: Kind

    @Argument(help: "A local media file (scripts/make-bench-file.sh makes the reference one).")
    var file: String

    @Argument(help: "thumbnail: more files, measured in the same run.")
    var moreFiles: [String] = []

    @Option(help: "thumbnail: the thumbnail's longer side, in pixels.")
    var size: Int = 256

    @Option(help: "thumbnail: zzuf-damaged copies of each file timed too, seeds 1 to N (0: none).")
    var damagedSeeds: Int = 3

    @Option(help: "Runs (decode, startup, play, window), pairs (level), positions (seek, click, preview), start positions (step) or drags (scrub).")
    var count: Int?

    @Flag(help: "Also measure the peer (ffmpeg or mpv) in the same run and report ratios.")
    var compare = false

    @Option(help: "Seed for the seek targets, step starts or preview positions (printed with the result).")
    var seed: UInt64 = SeekBench.defaultSeed

    @Option(help: "Seconds each scrub drag takes from one end of the file to the other.")
    var dragSeconds: Double = 10

    @Option(help: "stream: the fault proxy's stats file, to count the bytes the server sent.")
    var proxyStats: String?

    @Option(help: "queue: seconds of the file in each of the two items.")
    var clipSeconds: Double = 4

    @Option(help: "preview: seconds of each playing stretch, without previews and with them; click: without and with pictures decoded ahead; wakeups: seconds counted paused and playing.")
    var playSeconds: Double = 10

    @Option(name: .customLong("mpv-option"),
            help: "window: an option added to every mpv run, as --mpv-option=--deinterlace=yes (repeatable).")
    var mpvOptions: [String] = []

    func run() throws {
        if let count, count < 1 {
            throw ToolFailure(code: "usage", message: "--count must be at least 1")
        }
        guard dragSeconds >= 0.5, dragSeconds <= 600 else {
            throw ToolFailure(code: "usage", message: "--drag-seconds must be between 0.5 and 600")
        }
        BenchInterrupt.shared.install()
        guard moreFiles.isEmpty || kind == .thumbnail else {
            throw ToolFailure(code: "usage", message: "only bench thumbnail takes more than one file")
        }
        if kind == .thumbnail {
            guard (1...4096).contains(size) else { throw ToolFailure(code: "usage", message: "--size must be 1 to 4096") }
            guard (0...100).contains(damagedSeeds) else { throw ToolFailure(code: "usage", message: "--damaged-seeds must be 0 to 100") }
            Output.line(try ThumbnailBench(files: [file] + moreFiles, runs: count ?? 5, size: size, compare: compare,
                                           damagedSeeds: damagedSeeds).run())
            return
        }
        if kind == .stream {
            Output.line(try StreamBench(url: file, compare: compare, seeks: count ?? 20, seed: seed,
                                        proxyStats: proxyStats).run())
            return
        }
        if kind == .page {
            Output.line(try PageBench(url: file, runs: count ?? 5, compare: compare).run())
            return
        }
        var setup = try BenchSetup(file: file, compare: compare)
        setup.mpvOptions = mpvOptions
        let result: [String: Any]
        switch kind {
        case .decode: result = try DecodeBench(setup: setup, runs: count ?? 5).run()
        case .seek: result = try SeekBench(setup: setup, targets: count ?? 30, seed: seed).run()
        case .step: result = try StepBench(setup: setup, starts: count ?? 5, steps: 20, seed: seed).run()
        case .scrub: result = try ScrubBench(setup: setup, drags: count ?? 4, seconds: dragSeconds).run()
        case .click:
            guard playSeconds >= 1, playSeconds <= 600 else {
                throw ToolFailure(code: "usage", message: "--play-seconds must be between 1 and 600")
            }
            result = try ClickBench(setup: setup, targets: count ?? 30, seed: seed, playSeconds: playSeconds).run()
        case .startup: result = try StartupBench(setup: setup, runs: count ?? 10).run()
        case .play: result = try PlayBench(setup: setup, runs: count ?? 1).run()
        case .level: result = try LevelBench(setup: setup, runs: count ?? 3).run()
        case .window: result = try WindowBench(setup: setup, runs: count ?? 3).run()
        case .preview:
            guard playSeconds >= 1, playSeconds <= 600 else {
                throw ToolFailure(code: "usage", message: "--play-seconds must be between 1 and 600")
            }
            result = try PreviewBench(setup: setup, targets: count ?? 30, seed: seed, playSeconds: playSeconds).run()
        case .queue:
            guard clipSeconds >= 1, clipSeconds <= 60 else {
                throw ToolFailure(code: "usage", message: "--clip-seconds must be between 1 and 60")
            }
            result = try QueueBench(setup: setup, clipSeconds: clipSeconds).run()
        case .wakeups:
            guard playSeconds >= 1, playSeconds <= 600 else {
                throw ToolFailure(code: "usage", message: "--play-seconds must be between 1 and 600")
            }
            result = try WakeupsBench(setup: setup, seconds: playSeconds).run()
        case .stream, .page, .thumbnail: return
        }
        Output.line(result)
    }
}

@main
enum Main {
    static func main() {
        CommandLineMain.run(ReelBench.self)
    }
}

/// Ratios are rounded like every other figure; a zero denominator (a peer that did nothing)
/// gives null rather than infinity.
func benchRatio(_ reel: Double, _ peer: Double) -> Double? {
    peer > 0 ? Output.round(reel / peer, 3) : nil
}
