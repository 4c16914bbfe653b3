import Foundation
import ReelTestSupport
import Testing

/// A web page opened in the window: the window is named after the page, the Quality submenu
/// is offered with the playing quality chosen, and choosing the other one plays it (the
/// submenu's action as the desktop exports it; what the engine plays is WebPageTests').
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("A web page in the window", .serialized)
struct WebPageWindowTests {
    static func describe(_ desktop: Desktop, _ action: String) throws -> String {
        try desktop.run(["gdbus", "call", "--session", "--dest", "io.github.reel.Reel", "--object-path",
                         "/io/github/reel/Reel/window/1", "--method", "org.gtk.Actions.Describe", action]).output
    }

    @Test("The page's title names the window; Quality offers both, the taller chosen; the other chosen plays")
    func quality() throws {
        try SharedDesktop.standard.use { desktop in
            try desktop.writeSettings(["remember-queue=false"])
            let address = try WebPages.twoQualities(try WebServer.shared())
            let app = try ReelApp(on: desktop, arguments: ["--paused", address])
            defer { app.stop() }
            try Desktop.wait("the page's title", log: app.log, timeout: 30) { app.title.hasPrefix("Two qualities (1)") }
            try Desktop.wait("Quality offered with the taller picture chosen", log: app.log) {
                try Self.describe(desktop, "quality-menu").hasPrefix("((true,") && Self.describe(desktop, "web-format").contains("'hls-1000'")
            }
            _ = try desktop.run(["gdbus", "call", "--session", "--dest", "io.github.reel.Reel", "--object-path",
                                 "/io/github/reel/Reel/window/1", "--method", "org.gtk.Actions.Activate",
                                 "web-format", "[<'hls-300'>]", "{}"])
            try Desktop.wait("the other quality playing", log: app.log, timeout: 30) {
                try Self.describe(desktop, "web-format").contains("'hls-300'")
            }
            #expect(app.title.hasPrefix("Two qualities (1)"))
        }
    }

    @Test("A page of two videos: the first plays, the second waits in the queue, and the notice says so")
    func listedVideosQueued() throws {
        try SharedDesktop.standard.use { desktop in
            try desktop.writeSettings(["remember-queue=false", ControlsTests.readableMessages])
            let address = try WebPages.twoVideos(try WebServer.shared())
            let app = try ReelApp(on: desktop, arguments: ["--paused", address])
            defer { app.stop() }
            try app.waitForElement("the notice of the page's other video") {
                $0.role == "label" && $0.name == "1 more video from the page is in the queue"
            }
            try app.click(try app.revealHeader(showing: "Queue"))
            let rows = try QueueWindowTests.rows(app, count: 2)
            #expect(rows.count == 2 && rows[0].contains("two-films.html") && rows[0].hasSuffix("(playing)")
                    && rows[1].contains("second.mp4"), "rows: \(rows)")
        }
    }
}
