import Foundation
@testable import ReelApp
import ReelEngine

/// Stands in for the window and its player: it only writes down what the session asks, in
/// order, and keeps the notices' buttons so that a test can press them. It plays nothing: what
/// the player says comes through the bench's real player model (`SessionBench.feed`).
/// Threading: main thread only.
@MainActor
final class PlayerRecorder: SessionPlayer, SessionWindow {
    /// One request from the session. Threading: a value type.
    enum Call: Equatable, CustomStringConvertible {
        case open(String, start: Double?, paused: Bool)
        case play, pause, close, clearBreaks, present, closeWindow
        case seek(Double)
        case setNext(String?, audioStream: Int?)
        case scheduleBreak(String, at: Double)
        case notify(String, buttons: [String])

        var description: String {
            switch self {
            case .open(let source, let start, let paused):
                "open(\((source as NSString).lastPathComponent), start: \(start.map { "\($0)" } ?? "nil"), paused: \(paused))"
            case .play: "play"
            case .pause: "pause"
            case .close: "close"
            case .clearBreaks: "clearBreaks"
            case .present: "present"
            case .closeWindow: "closeWindow"
            case .seek(let to): "seek(\(to))"
            case .setNext(let source, let audio): "setNext(\(source.map { ($0 as NSString).lastPathComponent } ?? "nil"), \(audio.map(String.init) ?? "nil"))"
            case .scheduleBreak(let clip, let at): "scheduleBreak(\(clip), at: \(at))"
            case .notify(let text, let buttons): "notify(\(text), \(buttons))"
            }
        }
    }

    private(set) var calls: [Call] = []
    /// Whether this player has breaks.
    var hasBreaks = true
    /// The buttons of the latest notice that had any, by label.
    private(set) var buttons: [String: @MainActor () -> Void] = [:]

    /// The calls since the last `take()`, which forgets them.
    func take() -> [Call] {
        defer { calls = [] }
        return calls
    }

    /// The sources opened, in order.
    var opened: [String] {
        calls.compactMap { if case .open(let source, _, _) = $0 { source } else { nil } }
    }

    var notices: [String] {
        calls.compactMap { if case .notify(let text, _) = $0 { text } else { nil } }
    }

    func press(_ label: String) {
        guard let run = buttons[label] else { fatalError("no button \(label) among \(buttons.keys.sorted())") }
        run()
    }

    func open(_ source: MediaSource, start: Double?, paused: Bool) { calls.append(.open(source.description, start: start, paused: paused)) }
    func play() { calls.append(.play) }
    func pause() { calls.append(.pause) }
    func seek(to seconds: Double) { calls.append(.seek(seconds)) }
    func close() { calls.append(.close) }
    func setNext(_ source: MediaSource?, audioStream: Int?) { calls.append(.setNext(source?.description, audioStream: audioStream)) }

    func scheduleBreak(_ clip: MediaSource, at seconds: Double) -> Bool {
        guard hasBreaks else { return false }
        calls.append(.scheduleBreak(clip.description, at: seconds))
        return true
    }

    func clearBreaks() { calls.append(.clearBreaks) }

    func notify(_ text: String, actions: [NoticeAction], seconds: Double) {
        calls.append(.notify(text, buttons: actions.map(\.label)))
        if !actions.isEmpty { buttons = Dictionary(uniqueKeysWithValues: actions.map { ($0.label, $0.run) }) }
    }

    func present() { calls.append(.present) }
    func closeWindow() { calls.append(.closeWindow) }
}
