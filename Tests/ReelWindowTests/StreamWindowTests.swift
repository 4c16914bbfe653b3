import Foundation
import ReelEngine
import ReelTestSupport
import Testing

/// Streaming in the window: the Open an Address dialog's "download for offline" fetches the
/// whole file into the stream cache (checked against the served file), then plays it.
@Suite("Streaming in the window", .serialized)
struct StreamWindowTests {
    @Test("Open an Address (Ctrl+L) with download for offline: the file is cached whole, then plays")
    func downloadForOffline() throws {
        let server = try WebServer.shared()
        let clip = try Fixtures.path(.solidRed)
        let url = try server.publish(clip, as: "window-offline-\(UUID().uuidString)")
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop)
            try app.element(named: "Open a Video")
            // The window's open-url action (what Ctrl+L triggers), over D-Bus.
            try app.activate("open-url")
            try app.waitForElement("the address entry, focused") {
                $0.role == "text" && $0.name.hasPrefix("Address") && $0.states.contains("focused")
            }
            try desktop.xdotool(["type", "--delay", "10", url])
            try desktop.key("alt+d")
            try app.waitForElement("the offline box ticked") {
                $0.role == "check box" && $0.name.contains("Download for offline") && $0.states.contains("checked")
            }
            try desktop.key("Return")
            // The dialog goes away once the download is done (its window with it, so a reading of
            // the accessibility tree may fail once while it closes).
            try Desktop.wait("the downloaded clip's total time", timeout: 90) {
                (try? app.accessibleTree())?.contains { $0.role == "label" && $0.name == "0:10" } ?? false
            }
            var options = StreamCacheOptions()
            options.directory = desktop.home.appendingPathComponent("cache/reel/streams").path
            let item = try #require(StreamCache(options: options).list().first { $0.url == url })
            #expect(item.complete)
            #expect(FileManager.default.contents(atPath: item.path) == FileManager.default.contents(atPath: clip))
        }
    }
}
