import CGtk
import ReelEngine

/// Chapters in the view: a click on a chapter's mark on the scrubber lands exactly on the
/// chapter's start, named on the billboard; and the host's popovers over the view (the app's
/// chapter list), which hold the controls up while open as the view's own menus do.
/// Threading: main thread only.
extension PlayerView {
    func wireChapterClicks() {
        controls.snapClick = { [weak self] x in
            guard let self, let duration = self.model.duration else { return nil }
            let chapters = self.chapterMarks.chapters
            guard let start = ChapterMarkHit.start(atX: x, starts: chapters.map(\.start), duration: duration,
                                                   geometry: self.controls.scrubberGeometry()),
                  let index = chapters.firstIndex(where: { $0.start == start })
            else { return nil }
            self.billboard.show(ChapterNames.announcement(chapters[index], number: index + 1))
            return start
        }
    }

    /// Lays `popover` (a GtkPopover of the host) over the view: while it is open the controls
    /// stay up, and when it closes the focus goes back to the picture.
    public func addPopover(_ popover: UnsafeMutablePointer<GtkWidget>) {
        gtk_widget_set_parent(popover, widget)
        Signal.connectPointer(popover.raw, "notify::visible") { [weak self] _ in
            guard let self else { return }
            self.visibility.popover(gtk_widget_get_visible(popover) != 0, now: Clock.now)
            self.applyVisibility()
        }
        MenuFocus.returnsFocus(from: popover, in: movie.area)
    }

    /// Where a popover of the host points from: just above the middle of the controls bar
    /// (the scrubber the chapters are marked on), in the view's coordinates.
    public var aboveControls: GdkRectangle {
        let width = Double(gtk_widget_get_width(widget)), height = Double(gtk_widget_get_height(widget))
        return GdkRectangle(x: gint(width / 2), y: gint(max(0, height - controlsHeight)), width: 1, height: 1)
    }
}
