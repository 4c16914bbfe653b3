import Foundation
import ReelTestSupport

/// One desktop that the tests of a suite take turns on, started by the first that asks: a new
/// X server, bus and accessibility bus (with the reader's Python) cost a test more than most
/// of its own steps. Each turn starts as a new desktop would: no Reel settings, saved state
/// (queue, resume positions), stream cache or pictures from the turn before, the pointer at the
/// screen's centre. A turn's programs stop with it (a `ReelApp` stops its app when released).
/// Threading: any test thread; `use` runs one turn at a time, under the lock.
final class SharedDesktop: @unchecked Sendable {
    // Safe to send: `desktop` is only touched with `lock` held, and never leaves a turn.
    private let lock = NSLock()
    private let width: Int, height: Int
    private var desktop: Desktop?
    /// Counts the turns, so that a stop planned after one knows whether another has begun.
    private var turns = 0

    /// The desktop at the usual size that window suites take turns on, a suite's tests one
    /// after another and the next suite's after them: a suite of one test would otherwise start
    /// an X server, a bus, the accessibility bus and the reader for one window. A pause between
    /// two suites (tests without windows in between) longer than `idleStop` stops it, and the
    /// next turn starts a new one.
    static let standard = SharedDesktop()

    init(width: Int = 1280, height: Int = 800) {
        self.width = width
        self.height = height
        ProcessExit.run { [self] in
            lock.lock()
            defer { lock.unlock() }
            desktop?.stop()
            desktop = nil
        }
    }

    /// Runs `body` on the shared desktop, made clean for it.
    func use<T>(_ body: (Desktop) throws -> T) throws -> T {
        lock.lock()
        turns += 1
        let turn = turns
        defer {
            lock.unlock()
            stop(unlessUsedAfter: turn)
        }
        let desktop = try self.desktop ?? Desktop(width: width, height: height)
        self.desktop = desktop
        try clean(desktop)
        return try body(desktop)
    }

    /// Stops the desktop if no turn follows this one at once (the suite has run): a desktop
    /// left idle beside later suites' windows made one of them (the queue panel's drag) fail
    /// now and then. The tests of a suite follow each other without a pause.
    private func stop(unlessUsedAfter turn: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + SharedDesktop.idleStop) { [self] in
            lock.lock()
            defer { lock.unlock() }
            guard turns == turn else { return }
            desktop?.stop()
            desktop = nil
        }
    }

    /// How long a desktop stays after a turn, waiting for the next.
    static let idleStop = 1.5

    private func clean(_ desktop: Desktop) throws {
        let files = FileManager.default
        for folder in ["config", "state", "cache/reel/streams"] {
            let url = desktop.home.appendingPathComponent(folder)
            if files.fileExists(atPath: url.path) { try files.removeItem(at: url) }
        }
        for folder in ["config", "state"] {
            try files.createDirectory(at: desktop.home.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        // Pictures a turn saved under the names the next one uses would be taken for its own.
        for name in try files.contentsOfDirectory(atPath: desktop.home.path) where name.hasSuffix(".png") {
            try files.removeItem(at: desktop.home.appendingPathComponent(name))
        }
        try desktop.moveMouse(width / 2, height / 2)
    }
}
