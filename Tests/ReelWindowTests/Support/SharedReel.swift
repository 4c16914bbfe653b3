import Foundation
import ReelTestSupport

/// One desktop and one running `reel` that the cases of a suite share, started by the first
/// case that asks: each case opens its file in the running instance with the same options
/// (`--paused --start` for instance), as a second launch from a terminal does (its file and
/// options act in the running window), instead of paying for an X server and an app of its own. Before each file the instance is shown a blank clip and its picture is checked, so
/// that a case's settled picture cannot be what the file before it left on screen.
/// Threading: any test thread; `picture` runs one case at a time, under the lock.
final class SharedReel: @unchecked Sendable {
    // Safe to send: the mutable state (desktop, app, blank picture) is only touched with
    // `lock` held, and the objects it holds never leave `picture`.
    private let lock = NSLock()
    private let desktopSize: (width: Int, height: Int)
    private let launchOptions: [String]
    private let environment: [String: String]
    /// Reel's settings on the desktop (lines of its keyfile group), written before the first launch.
    private let settings: [String]
    private let blank: Fixtures.Spec
    /// The cases' pictures differ in size from the blank's (and each other's).
    private let resizes: Bool
    private var desktop: Desktop?
    private var app: ReelApp?
    /// The blank clip's picture as this instance draws it, byte for byte.
    private var blankPicture: Data?
    /// Counts the pictures saved, so that no save looks at a file an earlier one left.
    private var saves = 0
    /// Counts the cases, so that a stop planned after one knows whether another has begun.
    private var cases = 0

    /// `launchOptions`: the options of the first launch and of each later one that hands a file over;
    /// `blank`: a clip of one flat colour, at the size the cases' pictures are drawn unless
    /// `resizes`: then the window takes each file's size a moment after it opens, and a picture
    /// drawn at another size is waited out (one never drawn 1:1 still fails, at the timeout).
    /// `environment`: the app's own, over the desktop's (REEL_VIDEO_OUTPUT for a drawing path).
    /// `settings`: Reel's settings, lines of its keyfile group.
    init(desktopWidth: Int = 1280, desktopHeight: Int = 800, launchOptions: [String], blank: Fixtures.Spec,
         resizes: Bool = false, environment: [String: String] = [:], settings: [String] = []) {
        self.settings = settings
        desktopSize = (desktopWidth, desktopHeight)
        self.launchOptions = launchOptions
        self.environment = environment
        self.blank = blank
        self.resizes = resizes
        ProcessExit.run { [self] in stop() }
    }

    func stop() {
        lock.lock()
        defer { lock.unlock() }
        stopHoldingLock()
    }

    private func stopHoldingLock() {
        app?.stop()
        app = nil
        desktop?.stop()
        desktop = nil
        blankPicture = nil
    }

    /// Opens `clip` in the shared instance (after the blank clip) and saves its picture once
    /// two saves in a row agree; `body` gets the desktop (for a place to write next to the
    /// picture) and the PNG's path. The picture must be drawn 1:1 at `width`×`height`.
    func picture<T>(of clip: String, width: Int, height: Int, name: String,
                    _ body: (_ desktop: Desktop, _ png: String) throws -> T) throws -> T {
        try picture(of: clip, width: width, height: height, name: name) { desktop, png, _ in try body(desktop, png) }
    }

    /// The same, and `body` also gets the app (to look at its window on screen).
    func picture<T>(of clip: String, width: Int, height: Int, name: String,
                    _ body: (_ desktop: Desktop, _ png: String, _ app: ReelApp) throws -> T) throws -> T {
        lock.lock()
        cases += 1
        let turn = cases
        defer {
            lock.unlock()
            stop(unlessUsedAfter: turn)
        }
        let blankClip = try Fixtures.path(blank)
        let (desktop, app, blankPicture) = try showBlank(blankClip, width: width, height: height)
        try desktop.run([ReelApp.binary] + launchOptions + [clip])
        saves += 1
        let png = try app.saveSettledPicture("a settled \(width)×\(height) picture of \(name)", name: "\(name)-\(saves)", timeout: 40) { size, data in
            // Still the blank clip: the file has not been drawn yet.
            if data == blankPicture { return false }
            if size.width != width || size.height != height {
                if resizes { return false }
                // The window opens at the video's natural size, so the picture is drawn 1:1.
                throw Command.Failure(command: ["save-picture"], result: .init(status: -1, stdout: Data(),
                    stderr: Data("the picture is drawn at \(size.width)×\(size.height), not 1:1 at \(width)×\(height)".utf8)))
            }
            return true
        }
        return try body(desktop, png, app)
    }

    /// Stops the app and desktop if no case follows this one at once (the suite has run), as
    /// `SharedDesktop` does.
    private func stop(unlessUsedAfter turn: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + SharedDesktop.idleStop) { [self] in
            lock.lock()
            defer { lock.unlock() }
            if cases == turn { stopHoldingLock() }
        }
    }

    /// The instance showing the blank clip, started with it if there is none running (or it
    /// stopped); its picture is the one first settled at start (at `width`×`height` unless
    /// the cases' sizes differ from the blank's).
    private func showBlank(_ blankClip: String, width: Int, height: Int) throws -> (Desktop, ReelApp, Data) {
        saves += 1
        if let desktop, let app, app.isRunning, let blankPicture {
            try desktop.run([ReelApp.binary] + launchOptions + [blankClip])
            _ = try app.saveSettledPicture("the blank clip's picture again", name: "blank-\(saves)", timeout: 40) { _, data in
                data == blankPicture
            }
            return (desktop, app, blankPicture)
        }
        app?.stop()
        let desktop = try desktop ?? Desktop(width: desktopSize.width, height: desktopSize.height)
        self.desktop = desktop
        if !settings.isEmpty { try desktop.writeSettings(settings) }
        let app = try ReelApp(on: desktop, arguments: launchOptions + [blankClip], environment: environment)
        self.app = app
        var picture = Data()
        _ = try app.saveSettledPicture("the blank clip's picture", name: "blank-\(saves)", timeout: 40) { size, data in
            picture = data
            return resizes || (size.width == width && size.height == height)
        }
        blankPicture = picture
        return (desktop, app, picture)
    }
}
