import CGtk
import Foundation
import ReelEngine

/// The current media's chapters: a mark on the scrubber at each chapter's start (GtkScale
/// marks, without text: the titles appear in the hover preview), and the title of the
/// chapter at any time. Marks follow the media: set when it loads, cleared when it closes.
/// Threading: main thread only.
@MainActor
final class ChapterMarks {
    private let scale: UnsafeMutablePointer<GtkWidget>
    private(set) var chapters: [Chapter] = []

    init(scale: UnsafeMutablePointer<GtkWidget>) { self.scale = scale }

    /// Marks the starts of `chapters` on a scrubber running from 0 to `duration`. The first
    /// chapter's start (normally 0) and starts at or past the end get no mark: a mark at
    /// either end of the trough tells nothing.
    func show(_ chapters: [Chapter], duration: Double?) {
        clear()
        self.chapters = chapters.sorted { $0.start < $1.start }
        guard let duration, duration > 0 else { return }
        for start in ChapterMarkHit.marked(self.chapters.map(\.start), duration: duration) {
            gtk_scale_add_mark(scale.cast(), start, GTK_POS_BOTTOM, nil)
        }
        if !chapters.isEmpty { gtk_widget_add_css_class(scale, "reel-chapters") }
    }

    func clear() {
        chapters = []
        gtk_scale_clear_marks(scale.cast())
        gtk_widget_remove_css_class(scale, "reel-chapters")
    }

    /// The title of the chapter playing at `time`, if it has one.
    func title(at time: Double) -> String? { Self.title(in: chapters, at: time) }

    /// The title of the last chapter of `chapters` (sorted by start) that starts at or before
    /// `time` and has not ended (a chapter whose end is not after its start runs on), if any.
    nonisolated static func title(in chapters: [Chapter], at time: Double) -> String? {
        guard let chapter = chapters.last(where: { $0.start <= time + 1e-6 }),
              time < chapter.end || chapter.end <= chapter.start
        else { return nil }
        let title = chapter.title?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return title.isEmpty ? nil : title
    }
}
