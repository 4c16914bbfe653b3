import Foundation
import ReelCommandLine
import ReelEngine

/// The part of `bench click` that plays: the file played in real time (null sound output, a
/// 60 Hz headless display pulling pictures) for `seconds`, once with a picture decoded ahead at
/// a new place every `interval` (a pointer resting here and there on the scrubber while the
/// film plays) and once without; the pictures dropped in each. Decoding ahead runs at a low
/// priority and must not cost playback a picture.
/// Threading: runs on the calling thread; the presenter pulls on its own thread.
struct PlayingPrefetchDrops {
    let setup: BenchSetup
    let targets: [Double]
    let seconds: Double
    private let interval = 0.5

    func run() throws -> (withAhead: Int, without: Int, decodedAhead: Int) {
        let without = try play(prefetching: false)
        let with = try play(prefetching: true)
        return (with.dropped, without.dropped, with.decoded)
    }

    private func play(prefetching: Bool) throws -> (dropped: Int, decoded: Int) {
        let log = PlayerEventRecorder()
        let player = try setup.loadedPlayer(recording: log)
        defer { player.close() }
        let presenter = HeadlessPresenter(player: player, rate: 60)
        presenter.start()
        defer { presenter.stop() }
        player.play()
        Thread.sleep(forTimeInterval: 1)
        let before = player.statistics.framesDropped
        let start = HostTime.now
        var k = 0
        while HostTime.now.seconds(since: start) < seconds {
            if prefetching { player.prefetchPicture(at: targets[k % targets.count]) }
            k += 1
            sleep(until: start.adding(seconds: Double(k) * interval))
        }
        if case .failed(let error) = player.state { throw error }
        let decoded = log.all.filter { if case .pictureDecodedAhead = $0 { true } else { false } }.count
        return (player.statistics.framesDropped - before, decoded)
    }
}
