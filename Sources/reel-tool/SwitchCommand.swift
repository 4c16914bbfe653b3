import ArgumentParser
import Foundation
import ReelCommandLine
import ReelEngine

/// `reel-tool switch`: one player opening the given files in turn, each until its first
/// picture is shown and its sound plays, as a queue moves from item to item; prints the
/// memory as it goes. A player that leaks per item shows it here within a few hundred.
/// Threading: the main thread drives the player and waits on its events.
struct SwitchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switch",
        abstract: "Open files in turn in one player, as a queue does, and report memory.")

    @Argument(help: "Files (or URLs) to open in turn.")
    var sources: [String]

    @Option(help: "How many opens in all.")
    var count: Int = 100

    @Option(help: "pulse (falls back to silence when no sound server answers) or null.")
    var audio: PlayerConfiguration.AudioOutputChoice = .pulse

    @Option(help: "Print the memory every this many opens.")
    var every: Int = 50

    @Option(name: .customLong("refresh-rate"),
            help: "The headless display's refresh rate in Hz: how often pictures are taken (an open waits for its first to be shown).")
    var refreshRate: Double = 60

    func run() throws {
        guard !sources.isEmpty, count >= 1, every >= 1, refreshRate >= 1, refreshRate <= 1000 else {
            throw ToolFailure(code: "usage", message: "give at least one file, --count ≥ 1, --every ≥ 1 and a --refresh-rate from 1 to 1000")
        }
        let media = try sources.map { try MediaSource(parsing: $0) }
        // Only the outcome of the latest open is kept: a recorder of every event would itself
        // grow with the switches and hide what the player does.
        let outcome = OpenOutcome()
        var configuration = PlayerConfiguration()
        configuration.audioOutput = audio
        let player = Player(configuration: configuration, events: outcome.sink)
        let presenter = HeadlessPresenter(player: player, rate: refreshRate)
        presenter.start()
        defer {
            presenter.stop()
            player.close()
        }
        var openMs: [Double] = []
        for n in 1...count {
            outcome.reset()
            let started = Date()
            player.open(media[(n - 1) % media.count])
            player.play()
            switch outcome.wait(timeout: 20) {
            case nil: throw ToolFailure(code: "timeout", message: "open \(n) showed no picture within 20 s")
            case .failure(let error)?: throw error
            case .success?: break
            }
            openMs.append(Date().timeIntervalSince(started) * 1000)
            if n % every == 0 || n == count {
                Output.line(["event": "switch", "n": n,
                             "rss_mb": ResourceUsage.residentMB.map { Output.round($0, 1) } as Any,
                             "heap_mb": Output.round(ResourceUsage.heapInUseMB, 2)])
            }
        }
        Output.line(["event": "summary", "switches": count,
                     "median_open_ms": Output.round(Percentiles.median(openMs), 1),
                     "rss_mb": ResourceUsage.residentMB.map { Output.round($0, 1) } as Any,
                     "peak_rss_mb": Output.round(ResourceUsage.peakResidentMB, 1)])
    }
}

/// The first picture or the failure of the latest open. Threading: events arrive on the
/// player's control thread; `wait` blocks the main thread; state is locked.
private final class OpenOutcome: @unchecked Sendable {
    // Safe: all state is guarded by `condition`.
    private let condition = NSCondition()
    private var result: Result<Void, PlayerError>?

    var sink: @Sendable (PlayerEvent) -> Void {
        { [self] event in
            switch event {
            case .firstFrameShown: settle(.success(()))
            case .stateChanged(_, .failed(let error)): settle(.failure(error))
            default: break
            }
        }
    }

    private func settle(_ value: Result<Void, PlayerError>) {
        condition.lock()
        if result == nil { result = value }
        condition.broadcast()
        condition.unlock()
    }

    func reset() {
        condition.lock()
        result = nil
        condition.unlock()
    }

    func wait(timeout: Double) -> Result<Void, PlayerError>? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while result == nil, condition.wait(until: deadline) {}
        return result
    }
}
