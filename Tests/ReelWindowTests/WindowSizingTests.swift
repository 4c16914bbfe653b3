import Foundation
import ReelTestSupport
import Testing

/// The window's size and place as media of other sizes open in it (handed over by a second
/// launch, as a file manager does): it keeps its centre and stays on the screen, as the X
/// server reports it, and a small or very wide picture gets room for the header and controls.
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("The window's size and place", .serialized)
struct WindowSizingTests {
    static let hd = Fixtures.Spec.video("window-1280x720", ext: "mp4", size: "1280x720", rate: "25", seconds: 4,
                                        codec: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
    static let scope = Fixtures.Spec.video("window-640x272", ext: "mp4", size: "640x272", rate: "25", seconds: 4,
                                           codec: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])

    typealias Frame = (x: Int, y: Int, width: Int, height: Int)

    static func centre(_ g: Frame) -> (x: Double, y: Double) {
        (Double(g.x) + Double(g.width) / 2, Double(g.y) + Double(g.height) / 2)
    }

    /// Hands `spec` to the running Reel, then waits until its window, grown or shrunk from
    /// `from`, is where `placed` wants it; records what it was when it never got there.
    static func open(_ spec: Fixtures.Spec, in app: ReelApp, from: Frame, _ what: String,
                     placed: @escaping (Frame) -> Bool) throws -> Frame {
        let path = try Fixtures.path(spec)
        try app.desktop.run([ReelApp.binary, path])
        try Desktop.wait("the title of \(spec.name)", log: app.log, timeout: 20) { app.title.contains(spec.name) }
        var seen: [Frame] = []
        do {
            try Desktop.wait(what, log: app.log, timeout: 20) {
                let now = try app.geometry()
                if seen.last.map({ $0 != now }) ?? true { seen.append(now) }
                return (now.width, now.height) != (from.width, from.height) && placed(now)
            }
        } catch {
            Issue.record("from \(from) the window went through \(seen)")
            throw error
        }
        return seen.last!
    }

    func onScreen(_ g: Frame, _ desktop: Desktop) -> Bool {
        g.x >= 0 && g.y >= 0 && g.x + g.width <= desktop.width && g.y + g.height <= desktop.height
    }

    @Test("Opening pictures of other sizes keeps the window's centre and the window on the screen; a scope picture gets a window 360 high")
    func keepsCentre() throws {
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop, arguments: [try Fixtures.path(.longSmall)])
            try app.element(named: "Pause")
            let small = try app.geometry()
            #expect(onScreen(small, desktop), "\(small)")

            let a = Self.centre(small)
            let keptCentre = { (g: Frame) in
                let b = Self.centre(g)
                return abs(a.x - b.x) <= 3 && abs(a.y - b.y) <= 3
            }
            let large = try Self.open(Self.hd, in: app, from: small, "the window grown about its centre, on the screen") {
                self.onScreen($0, desktop) && keptCentre($0)
            }
            #expect(large.width > small.width && large.height > small.height, "\(small) → \(large)")
            _ = try Self.open(Self.scope, in: app, from: large, "the window shrunk about its centre, on the screen") {
                self.onScreen($0, desktop) && keptCentre($0)
            }
            // 640×272 at its size, with room above and below: the window's picture area is 360 high.
            let movie = try app.element(named: "Video")
            #expect(movie.height >= 360, "a 640×272 picture got a \(movie.width)×\(movie.height) window")
        }
    }

    @Test("Near the screen's right edge the window grows about its centre as far as the screen lets it: up and down evenly, leftwards only as far as it must")
    func staysOnScreen() throws {
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop, arguments: [try Fixtures.path(.longSmall)])
            try app.element(named: "Pause")
            let placed = try app.geometry()
            // As a person drags it there: 60 pixels from the right edge.
            let x = desktop.width - placed.width - 60, y = (desktop.height - placed.height) / 2
            try desktop.xdotool(["windowmove", app.window, String(x), String(y)])
            var near = placed
            try Desktop.wait("the window by the right edge", log: app.log, timeout: 10) {
                near = try app.geometry()
                return near.x == x && near.y == y
            }
            let centre = Self.centre(near)
            // Grown by more than twice the 60 pixels: centred, it would reach past the edge.
            let large = try Self.open(Self.hd, in: app, from: near, "the window grown about its centre, against the right edge") { g in
                self.onScreen(g, desktop) && g.x + g.width == desktop.width && abs(Self.centre(g).y - centre.y) <= 3
            }
            #expect(large.width - near.width > 120, "\(near) → \(large)")
        }
    }
}
