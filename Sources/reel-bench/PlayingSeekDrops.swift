import Foundation
import ReelCommandLine
import ReelEngine

/// The part of `bench seek` that plays: exact seeks made while playing in real time (null
/// sound output, a 60 Hz headless display pulling pictures), counting the pictures dropped in
/// the first second after each landing. A resync that shows a catch-up run of late pictures
/// would drop some; none should be.
/// Threading: runs on the calling thread; the presenter pulls on its own thread.
struct PlayingSeekDrops {
    let setup: BenchSetup
    let targets: [Double]
    private let timeout = 30.0

    func run() throws -> (total: Int, worst: Int) {
        let log = PlayerEventRecorder()
        let player = try setup.loadedPlayer(recording: log)
        defer { player.close() }
        let presenter = HeadlessPresenter(player: player, rate: 60)
        presenter.start()
        defer { presenter.stop() }
        player.play()
        Thread.sleep(forTimeInterval: 1)
        var total = 0, worst = 0
        for target in targets {
            let mark = log.count
            player.seek(to: target, mode: .exact)
            guard log.wait(from: mark, timeout: timeout, { event in
                if case .seekCompleted = event { return true }
                if case .stateChanged(_, .failed) = event { return true }
                return false
            }) != nil else {
                throw ToolFailure(code: "timeout", message: "Reel's seek to \(target) s while playing did not land")
            }
            if case .failed(let error) = player.state { throw error }
            let before = player.statistics.framesDropped
            Thread.sleep(forTimeInterval: 1)
            let dropped = player.statistics.framesDropped - before
            total += dropped
            worst = max(worst, dropped)
        }
        return (total, worst)
    }
}
