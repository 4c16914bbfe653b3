import Foundation
import ReelTestSupport
import Testing

/// Page Down and Page Up on a file made by ffmpeg with two chapters ("Opening" from 0 s, "Main
/// part" from 2 s): each lands on a chapter's start, read from the time label, and the billboard
/// names it, as a screen reader reads it; past the last chapter it says so and stays. With one
/// item the media keys' next and previous do the same.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Chapter keys in the window", .serialized)
struct ChapterKeysWindowTests {
    @Test("Page Down goes to the next chapter, Page Up back to the one before; both say which")
    func steps() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .withChapters, settings: [ControlsTests.readableMessages])
            try s.desktop.click(s.movie.x + 5, s.movie.y + s.movie.height / 2)   // focus the window
            try s.desktop.key("Page_Down")
            try s.app.waitForElement("the billboard naming chapter 2") { $0.role == "label" && $0.name == "Chapter 2: Main part" }
            try Desktop.wait("the time at 0:02", timeout: 20) { try s.elapsed() == 2 }
            try s.desktop.key("Page_Down")
            try s.app.waitForElement("the billboard saying it is the last") { $0.role == "label" && $0.name == "This is the last chapter" }
            #expect(try s.elapsed() == 2)
            try s.desktop.key("Page_Up")
            try s.app.waitForElement("the billboard naming chapter 1") { $0.role == "label" && $0.name == "Chapter 1: Opening" }
            try Desktop.wait("the time back at 0:00", timeout: 20) { try s.elapsed() == 0 }
        }
    }

    @Test("With one item, the media keys' next and previous step its chapters as Page Down and Page Up do")
    func mediaKeys() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .withChapters, settings: [ControlsTests.readableMessages])
            try s.desktop.click(s.movie.x + 5, s.movie.y + s.movie.height / 2)   // focus the window
            try s.desktop.key("XF86AudioNext")
            try s.app.waitForElement("the billboard naming chapter 2") { $0.role == "label" && $0.name == "Chapter 2: Main part" }
            try Desktop.wait("the time at 0:02", timeout: 20) { try s.elapsed() == 2 }
            try s.desktop.key("XF86AudioPrev")
            try s.app.waitForElement("the billboard naming chapter 1") { $0.role == "label" && $0.name == "Chapter 1: Opening" }
            try Desktop.wait("the time back at 0:00", timeout: 20) { try s.elapsed() == 0 }
        }
    }
}
