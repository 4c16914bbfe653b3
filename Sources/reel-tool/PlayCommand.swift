import ArgumentParser
import Foundation
import ReelCommandLine
import ReelEngine

/// `reel-tool play`: real-time playback through the engine with the headless presenter.
/// Threading: the main thread waits; events are handled on the player's control thread
/// (`PlaySession`), signals on a dispatch source (`InterruptWatch`).
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play in real time through the engine with a headless 60 Hz presenter.")

    @Argument(help: "File paths, file:// URIs or http(s):// URLs: played one straight after another (gapless).")
    var sources: [String]

    @Option(help: "pulse (falls back to silence when no sound server answers) or null.")
    var audio: PlayerConfiguration.AudioOutputChoice = .pulse

    @Flag(help: "Print one JSON line per event and a summary line at the end.")
    var json = false

    @Option(name: .customLong("seek-to"), help: "Start at this many seconds.")
    var seekTo: Double?

    @Option(name: .customLong("exit-after"), help: "Stop after this many seconds of playing.")
    var exitAfter: Double?

    @Option(help: "Stop once this many frames have been shown (startup measurements).")
    var frames: Int?

    @Option(help: "Volume from 0 to 1.")
    var volume: Double = 1

    @Flag(name: .customLong("max-speed"),
          help: "No clock and no sound: every frame once, as fast as it decodes (soak and throughput runs).")
    var maxSpeed = false

    @Option(help: "Playback speed from 0.25 to 4 (the sound keeps its pitch).")
    var speed: Double = 1

    @Flag(name: .customLong("level-loudness"),
          help: "Level the loudness (quiet passages raised, loud ones held down: FFmpeg's dynaudnorm).")
    var levelLoudness = false

    @Option(name: .customLong("toggle-levelling-at"),
            help: ArgumentHelp("Switch loudness levelling over at this media time while playing; repeatable.",
                               valueName: "SECONDS"))
    var toggleLevellingAt: [Double] = []

    @Option(help: "Play this many times in a row (each time from the beginning).")
    var loop: Int = 1

    @Option(name: .customLong("audio-file"), help: "Play the sound of this file (path or URL) with the picture, in sync.")
    var audioFile: String?

    @Option(help: ArgumentHelp("Play CLIP when the main item reaches SECONDS (0: before it), then go on; repeatable.",
                               valueName: "CLIP@SECONDS"))
    var interstitial: [String] = []

    func run() throws {
        guard let source = sources.first else { throw ToolFailure(code: "usage", message: "nothing to play") }
        guard loop >= 1 else { throw ToolFailure(code: "usage", message: "--loop must be at least 1") }
        guard speedRange.contains(speed) else {
            throw ToolFailure(code: "usage", message: "--speed must be between \(speedRange.lowerBound) and \(speedRange.upperBound)")
        }
        let following = try sources.dropFirst().map { text throws(PlayerError) in try MediaSource(parsing: text) }
        let session = PlaySession(json: json, frameLimit: frames, loops: loop, following: following)
        var configuration = PlayerConfiguration()
        configuration.audioOutput = maxSpeed ? .null : audio
        configuration.freewheel = maxSpeed
        configuration.observesEveryFrame = true
        let breaks = try interstitial.map(Self.parseInterstitial)
        let player: any PlaybackController
        if breaks.isEmpty {
            player = Player(configuration: configuration, events: session.sink)
        } else {
            let withBreaks = InterstitialPlayer(configuration: configuration, events: session.sink)
            for (clip, at) in breaks { withBreaks.schedule(clip, at: at) }
            player = withBreaks
        }
        session.player = player
        session.levellingToggles = LevellingToggles(toggleLevellingAt)
        player.setVolume(volume)
        player.setSpeed(speed)
        player.setLevelling(levelLoudness)
        let presenter = HeadlessPresenter(player: player, rate: maxSpeed ? nil : 60)
        let interrupted = InterruptWatch()
        player.open(try MediaSource(parsing: source))
        if let audioFile { (player as? TrackSelection)?.addAudioFile(audioFile) }
        if let seekTo { player.seek(to: seekTo, mode: .exact) }
        session.setNext()
        player.play()
        presenter.start()
        let outcome = session.waitForEnd(limit: exitAfter, interrupted: interrupted)
        presenter.stop()
        let statistics = player.statistics
        player.close()
        session.finish(statistics: statistics, outcome: outcome)
        if case .failed(let error) = outcome { throw error }
    }
}

/// Stops `play` cleanly on Ctrl+C or SIGTERM instead of dying by the signal.
final class InterruptWatch: @unchecked Sendable {
    // Safe: the sources are created once and only cancelled in deinit.
    private var sources: [DispatchSourceSignal] = []
    let fired = NSCondition()
    private(set) var didFire = false

    init() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                self.fired.lock(); self.didFire = true; self.fired.broadcast(); self.fired.unlock()
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}

extension PlayCommand {
    /// "clip.mp4@12.5" → the clip and the main item's time it plays at (the last @ splits, so
    /// names with @ in them work).
    static func parseInterstitial(_ text: String) throws -> (MediaSource, Double) {
        guard let at = text.lastIndex(of: "@"), let seconds = Double(text[text.index(after: at)...]), seconds >= 0 else {
            throw ToolFailure(code: "usage", message: "--interstitial takes CLIP@SECONDS, not \(text)")
        }
        return (try MediaSource(parsing: String(text[..<at])), seconds)
    }
}
