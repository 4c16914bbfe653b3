import Foundation
import ReelTestSupport
import Testing

/// The desktop's media remote as it reaches Reel: the real `playerctl` (what media keys and
/// shell extensions use) on the desktop's own session bus, against the real app with a queue
/// of two files. What playerctl reports is checked against the files (ffprobe) and against
/// the window (its title and its Play/Pause button).
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Media remote (MPRIS)", .serialized)
struct MPRISTests {
    static func playerctl(_ desktop: Desktop, _ arguments: [String]) throws -> String {
        try desktop.run(["playerctl", "--player=reel"] + arguments, check: false).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func duration(_ path: String) throws -> Double {
        let text = try Command.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]).output
        return Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test("playerctl reads status and metadata, pauses, seeks, sets volume, loop and shuffle, and moves through the queue")
    func playerctlRoundTrips() throws {
        let first = try Fixtures.path(.longSmall), second = try Fixtures.path(.h264MP4)
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop, arguments: [first, second])
            defer { app.stop() }
            func ctl(_ arguments: String...) throws -> String { try Self.playerctl(desktop, arguments) }

            try Desktop.wait("playerctl to see Reel playing", log: app.log) { try ctl("status") == "Playing" }
            let url = URL(fileURLWithPath: first).absoluteString
            #expect(try ctl("metadata", "xesam:url") == url)
            let name = (first as NSString).lastPathComponent
            let title = try ctl("metadata", "xesam:title")
            #expect(title.contains((name as NSString).deletingPathExtension), "title: \(title)")
            let length = Double(try ctl("metadata", "mpris:length")) ?? -1
            #expect(abs(length / 1_000_000 - (try Self.duration(first))) < 0.1, "mpris:length \(length) µs")

            // Play/pause from the remote shows in the window.
            _ = try ctl("play-pause")
            try Desktop.wait("Paused", log: app.log) { try ctl("status") == "Paused" }
            try app.element(named: "Play")

            // Position: set while paused, read back; the Seeked signal goes out.
            let monitorLog = desktop.home.appendingPathComponent("monitor-\(UUID().uuidString.prefix(8)).log").path
            try desktop.start(["gdbus", "monitor", "--session", "--dest", "org.mpris.MediaPlayer2.reel"], log: monitorLog)
            // The monitor names Reel's owner once it has asked the bus for it, after asking for
            // its signals: from then on a Seeked signal reaches it.
            try Desktop.wait("the monitor watching Reel", timeout: 10) {
                ((try? String(contentsOfFile: monitorLog, encoding: .utf8)) ?? "")
                    .contains("The name org.mpris.MediaPlayer2.reel is owned by")
            }
            _ = try ctl("position", "21.5")
            try Desktop.wait("the position to read 21.5 s", log: app.log) {
                abs((Double(try ctl("position")) ?? -1) - 21.5) < 0.05
            }
            try Desktop.wait("a Seeked signal", timeout: 10) {
                ((try? String(contentsOfFile: monitorLog, encoding: .utf8)) ?? "").contains("Player.Seeked (int64 215")
            }

            _ = try ctl("volume", "0.4")
            try Desktop.wait("the volume to read 0.4") { abs((Double(try ctl("volume")) ?? -1) - 0.4) < 0.001 }
            for mode in ["Track", "Playlist", "None"] {
                _ = try ctl("loop", mode)
                try Desktop.wait("loop \(mode)") { try ctl("loop") == mode }
            }
            _ = try ctl("shuffle", "On")
            try Desktop.wait("shuffle on") { try ctl("shuffle") == "On" }
            _ = try ctl("shuffle", "Off")
            try Desktop.wait("shuffle off") { try ctl("shuffle") == "Off" }

            // Next: the second file plays, and everything about it follows (url, length, title).
            _ = try ctl("next")
            try Desktop.wait("the second item", log: app.log) {
                try ctl("metadata", "xesam:url") == URL(fileURLWithPath: second).absoluteString
            }
            try Desktop.wait("the window to show it") { app.title.contains((second as NSString).lastPathComponent) }
            let secondLength = Double(try ctl("metadata", "mpris:length")) ?? -1
            #expect(abs(secondLength / 1_000_000 - (try Self.duration(second))) < 0.1)
            try Desktop.wait("playing", log: app.log) { try ctl("status") == "Playing" }
            // Previous at the start of an item goes back to the one before.
            _ = try ctl("previous")
            try Desktop.wait("the first item again", log: app.log) { try ctl("metadata", "xesam:url") == url }
            // Stop: stopped at the start.
            _ = try ctl("stop")
            try Desktop.wait("Stopped") { try ctl("status") == "Stopped" }
            #expect(abs((Double(try ctl("position")) ?? -1)) < 0.1)
        }
    }
}
