import Foundation
import ReelEngine
import ReelTestSupport
import Testing

/// Breaks in the main item (ads that suspend it): one before it and one in it,
/// played through the real sound server and a 60 Hz headless display. Checked from the
/// pictures that reached the screen, in order: the break's own from its first frame, and the
/// main item continuing from exactly the frame at the break's time.
@Suite("Interstitials")
struct InterstitialTests {
    /// What a play came to: every event recorded, and the state at the moment the play reads it.
    struct Run: Sendable {
        let events: [PlayerEvent]
        let state: PlayerState
    }

    /// The two plays. Each plays in real time on a player and presenter of its own and spends
    /// its seconds waiting for the clock, so both play at once, started by whichever test asks
    /// first; each test judges its own run.
    enum Play: Int, CaseIterable, Sendable {
        case startAndReturn, restrictedAndFailing

        func run() throws -> Run {
            switch self {
            case .startAndReturn: return try InterstitialTests.playStartAndReturn()
            case .restrictedAndFailing: return try InterstitialTests.playRestrictedAndFailing()
            }
        }
    }

    static let runs = Once { () -> [Result<Run, Error>] in AtOnce.map(Play.allCases) { try $0.run() } }

    /// The main item with a break before it and one at 1.5 s, until it has played a second past
    /// the second break. The state is read at the end. A break's last picture is due for 1/30 s
    /// before its end: a presenter kept from looking longer than that (a busy machine) misses
    /// it as a starved screen would, and the play is recorded again, up to three times.
    static func playStartAndReturn() throws -> Run {
        var run: Run?
        for attempt in 1...3 {
            let (played, gap) = try playStartAndReturnOnce()
            run = played
            if gap <= 1.0 / 30 { break }
            print(String(format: "interstitials: the presenter was kept from looking for %.0f ms (a busy machine)%@",
                         gap * 1000, attempt < 3 ? ": playing again" : ""))
        }
        return run!
    }

    static func playStartAndReturnOnce() throws -> (Run, gap: Double) {
        _ = try SoundServer.ensure()
        let main = try Fixtures.path(.longSmall)      // 30 fps: the frame at 1.5 s is pts 1.5
        let clip = try Fixtures.path(.videoOnly)      // 2 s, 30 fps
        let recorder = PlayerEventRecorder()
        var configuration = PlayerConfiguration()
        configuration.audioOutput = .pulse
        configuration.observesEveryFrame = true
        let player = InterstitialPlayer(configuration: configuration, events: recorder.sink)
        player.schedule(try MediaSource(parsing: clip), at: 1.5)
        player.schedule(try MediaSource(parsing: clip), at: 0)
        let presenter = HeadlessPresenter(player: player, rate: 60)
        presenter.start()
        defer { presenter.stop(); player.close() }
        player.open(try MediaSource(parsing: main))
        player.play()
        _ = recorder.wait(timeout: 60) { event in
            if case .frameShown(let report) = event { return report.pts >= 2.5 }
            return false
        }
        return (Run(events: recorder.all, state: player.state), presenter.longestGap)
    }

    /// A break that cannot be opened at 0.5 s and one at 1 s, with a seek to 30 s asked for
    /// while the second plays, until the first picture after it. The state is read when the
    /// second break has started.
    static func playRestrictedAndFailing() throws -> Run {
        let main = try Fixtures.path(.longSmall)
        let recorder = PlayerEventRecorder()
        var configuration = PlayerConfiguration()
        configuration.audioOutput = .null
        configuration.observesEveryFrame = true
        let player = InterstitialPlayer(configuration: configuration, events: recorder.sink)
        player.schedule(try MediaSource(parsing: "/nonexistent/ad.mp4"), at: 0.5)
        player.schedule(try MediaSource(parsing: try Fixtures.path(.videoOnly)), at: 1.0)
        let presenter = HeadlessPresenter(player: player, rate: 60)
        presenter.start()
        defer { presenter.stop(); player.close() }
        player.open(try MediaSource(parsing: main))
        player.play()
        // A wait that times out ends the play early; the test finds what is missing.
        guard recorder.wait(timeout: 30, { isFailedBreak($0) }) != nil,
              let second = recorder.wait(timeout: 30, { isSecondBreak($0) }) else {
            return Run(events: recorder.all, state: player.state)
        }
        let state = player.state
        player.seek(to: 30, mode: .exact)   // refused while the break plays
        if let back = recorder.wait(from: second.index, timeout: 30, { isBreakEnd($0) }) {
            _ = recorder.wait(from: back.index, timeout: 10) { isFrame($0) }
        }
        return Run(events: recorder.all, state: state)
    }

    static func isFailedBreak(_ event: PlayerEvent) -> Bool {
        if case .interstitialEnded(_, let error) = event { return error != nil }
        return false
    }
    static func isSecondBreak(_ event: PlayerEvent) -> Bool {
        if case .interstitialStarted(let r) = event { return r.index == 1 }
        return false
    }
    static func isBreakEnd(_ event: PlayerEvent) -> Bool {
        if case .interstitialEnded = event { return true }
        return false
    }
    static func isFrame(_ event: PlayerEvent) -> Bool {
        if case .frameShown = event { return true }
        return false
    }

    @Test("A break before the main item and one at 1.5 s: each plays whole, and the main item goes on from exactly 1.5 s")
    func startAndReturn() throws {
        let run = try Self.runs.get()[Play.startAndReturn.rawValue].get()
        let done = run.events.contains { event in
            if case .frameShown(let report) = event { return report.pts >= 2.5 }
            return false
        }
        try #require(done, "the main item never reached 2.5 s: \(run.events.map { "\($0)" }.suffix(20))")

        // Walk the events: which player's pictures are which follows from the break events.
        var phase = "before", breaks: [InterstitialReport] = [], ended: [InterstitialReport] = []
        var breakFrames: [[Double]] = [], mainFrames: [[Double]] = [[]]
        var states: [String] = []
        for event in run.events {
            switch event {
            case .interstitialStarted(let r): phase = "break"; breaks.append(r); breakFrames.append([])
            case .interstitialEnded(let r, let error):
                #expect(error == nil, "break \(r.index) failed: \(String(describing: error))")
                phase = "main"; ended.append(r); mainFrames.append([])
            case .frameShown(let report):
                if phase == "break" { breakFrames[breakFrames.count - 1].append(report.pts) }
                else { mainFrames[mainFrames.count - 1].append(report.pts) }
            case .stateChanged(let from, let to): states.append("\(from.name)→\(to.name)")
            default: break
            }
        }
        #expect(breaks.map(\.at) == [0, 1.5] && ended.map(\.at) == [0, 1.5], "breaks \(breaks), ended \(ended)")
        #expect(mainFrames[0].isEmpty, "main pictures before the first break: \(mainFrames[0])")
        for (i, frames) in breakFrames.enumerated() {
            #expect(frames.first == 0, "break \(i) began at \(frames.first.map { "\($0)" } ?? "nothing")")
            #expect((frames.last ?? 0) >= 1.9, "break \(i) stopped at \(frames.last ?? -1) of its 2 s")
        }
        // Between the breaks the main item starts at its beginning and stops at 1.5 s (a frame
        // or two past is allowed: it is put back).
        #expect(mainFrames[1].first == 0, "the main item began at \(mainFrames[1].first ?? -1)")
        #expect((mainFrames[1].last ?? 9) < 1.6, "the main item ran on to \(mainFrames[1].last ?? -1) before the break")
        // After the second break it continues from exactly the frame at 1.5 s.
        let resumed = try #require(mainFrames[2].first)
        #expect(abs(resumed - 1.5) < 0.001, "the main item went on from \(resumed), not 1.5")
        #expect(states.contains("playing→suspended") && states.contains("suspended→playing"), "states: \(states)")
        #expect(run.state == .playing)
    }

    @Test("While a break plays the main item cannot be moved; a break that cannot be opened is skipped")
    func restrictedAndFailing() throws {
        let run = try Self.runs.get()[Play.restrictedAndFailing.rawValue].get()
        let events = run.events
        try #require(events.contains(where: Self.isFailedBreak), "the missing break was not reported")
        let second = try #require(events.firstIndex(where: Self.isSecondBreak))
        #expect(run.state == .suspended)
        let back = try #require(events[second...].firstIndex(where: Self.isBreakEnd))
        let after = events[back...].first(where: Self.isFrame)
        guard case .frameShown(let report)? = after else { Issue.record("no picture after the break"); return }
        #expect(abs(report.pts - 1.0) < 0.001, "after the break the main item showed \(report.pts), not 1.0 (the seek to 30 s was refused)")
    }
}
