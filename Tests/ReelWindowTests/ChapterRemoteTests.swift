import Foundation
import ReelTestSupport
import Testing

/// The remote's Next and Previous with chapters, through the real `playerctl` and `gdbus` on
/// the desktop's session bus: with one item that has chapters (ffmpeg's file: "Opening" from
/// 0 s, "Main part" from 2 s) they step its chapters, landing exactly on their starts, and
/// CanGoNext says whether a chapter lies ahead; with two items Next plays the next one.
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Media remote (MPRIS) with chapters", .serialized)
struct ChapterRemoteTests {
    static let player = "org.mpris.MediaPlayer2.Player"

    static func canGoNext(_ desktop: Desktop) throws -> String {
        try MPRISTests.property(desktop, player, "CanGoNext").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("One item with chapters: Next and Previous step its chapters, CanGoNext true while one lies ahead")
    func oneItem() throws {
        let chapters = try Fixtures.path(.withChapters)
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop, arguments: ["--paused", chapters])
            defer { app.stop() }
            func ctl(_ arguments: String...) throws -> String { try MPRISTests.playerctl(desktop, arguments) }
            try Desktop.wait("playerctl to see Reel paused", log: app.log) { try ctl("status") == "Paused" }
            try Desktop.wait("CanGoNext true before the last chapter", log: app.log) { try Self.canGoNext(desktop) == "(<true>,)" }

            _ = try ctl("next")
            try Desktop.wait("the position at 2 s exactly (the second chapter)", log: app.log) { try ctl("position") == "2.000000" }
            try Desktop.wait("CanGoNext false in the last chapter", log: app.log) { try Self.canGoNext(desktop) == "(<false>,)" }
            #expect(try ctl("metadata", "xesam:url") == URL(fileURLWithPath: chapters).absoluteString)

            _ = try ctl("previous")
            try Desktop.wait("the position back at 0 (the first chapter)", log: app.log) { try ctl("position") == "0.000000" }
            try Desktop.wait("CanGoNext true again", log: app.log) { try Self.canGoNext(desktop) == "(<true>,)" }
        }
    }

    @Test("Two items, the first with chapters: Next plays the second item")
    func twoItems() throws {
        let chapters = try Fixtures.path(.withChapters), second = try Fixtures.path(.h264MP4)
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop, arguments: ["--paused", chapters, second])
            defer { app.stop() }
            func ctl(_ arguments: String...) throws -> String { try MPRISTests.playerctl(desktop, arguments) }
            try Desktop.wait("playerctl to see Reel paused", log: app.log) { try ctl("status") == "Paused" }
            #expect(try Self.canGoNext(desktop) == "(<true>,)")
            _ = try ctl("next")
            try Desktop.wait("the second item", log: app.log) {
                try ctl("metadata", "xesam:url") == URL(fileURLWithPath: second).absoluteString
            }
        }
    }
}
