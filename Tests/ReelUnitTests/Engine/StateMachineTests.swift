import ReelTestSupport
@testable import ReelEngine
import Testing

@Suite("State machine")
struct StateMachineTests {
    @Test("Every state answers open and close as documented")
    func openAndCloseFromEverywhere() {
        for kind in StateMachine.Kind.allCases where kind != .closed {
            #expect(StateMachine.table[kind]?[.close] == .closed, "close from \(kind)")
        }
        for kind in StateMachine.Kind.allCases where kind != .idle {
            #expect(StateMachine.table[kind]?[.open] == .loading, "open from \(kind)")
        }
    }

    @Test("Play after the end plays again; pause only while playing or stalled")
    func playAndPause() {
        #expect(StateMachine.next(from: .ended, on: .play) == .playing)
        #expect(StateMachine.next(from: .ready, on: .play) == .playing)
        #expect(StateMachine.next(from: .playing, on: .pause) == .ready)
        #expect(StateMachine.next(from: .stalled, on: .pause) == .ready)
        #expect(StateMachine.next(from: .loading, on: .play) == nil)
        #expect(StateMachine.next(from: .idle, on: .pause) == nil)
    }

    @Test("Failures carry their error")
    func failureCarriesError() {
        let error = PlayerError.networkError("x")
        #expect(StateMachine.next(from: .loading, on: .fail, error: error) == .failed(error))
    }

    @Test("Only commands are vetoable")
    func commandsAreVetoable() {
        let commands = StateMachine.Input.allCases.filter(\.isCommand).map(\.rawValue).sorted()
        #expect(commands == ["close", "open", "pause", "play", "seek"])
    }
}
