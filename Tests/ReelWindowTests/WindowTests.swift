import Foundation
import ReelTestSupport
import Testing

/// The real window under Xvfb: what opens, what it is called, what its controls are named.
@Suite("Window")
struct WindowTests {
    @Test("Opening a file shows its title, plays it, and names every control")
    func opensAndNamesControls() throws {
        try SharedDesktop.standard.use { desktop in
            let clip = try Fixtures.path(.h264MP4)
            let app = try ReelApp(on: desktop, arguments: [clip])
            try Desktop.wait("the title", timeout: 20) { app.title.contains("h264-30fps-bframes") }
            try app.element(named: "Main menu")
            let tree = try app.accessibleTree()
            let names = Set(tree.map(\.name))
            for control in ["Rewind", "Fast forward", "Position", "Volume", "Fullscreen", "Open a file", "Main menu"] {
                #expect(names.contains(control), "no control named \(control) in \(tree.map(\.description).joined(separator: "\n"))")
            }
            // Autoplay: the play button reads Pause while playing.
            #expect(names.contains("Pause") || names.contains("Play"))
        }
    }
}
