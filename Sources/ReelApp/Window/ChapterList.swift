import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The chapter list (Chapters… in the main menu and the picture's menu): a popover over the
/// controls with a row per chapter, its name and start, the one playing marked with a check and
/// in bold (and named "(playing)" to screen readers), kept so while the list is open. A click or
/// Enter on a row goes there exactly (the window names it on the billboard) and closes the list,
/// as choosing from a menu does; a long list scrolls.
/// Threading: main thread only.
@MainActor
final class ChapterList {
    let popover: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let scroller: UnsafeMutablePointer<GtkWidget>
    private var rows = ChapterRows([], duration: nil)
    /// Each row's check mark and name, to move the mark without rebuilding.
    private var marks: [(row: UnsafeMutablePointer<GtkWidget>, check: UnsafeMutablePointer<GtkWidget>,
                         name: UnsafeMutablePointer<GtkWidget>, label: String)] = []
    private var current: Int?
    /// The rows' marks and names are set for `current` (false after a rebuild).
    private var marked = false
    /// A row was activated: go to the chapter of `rows.rows[index]`.
    var chosen: (@MainActor (ChapterRows.Row) -> Void)?

    init() {
        popover = gtk_popover_new()
        gtk_widget_add_css_class(popover, "reel-chapter-list")
        gtk_popover_set_position(popover.cast(), GTK_POS_TOP)
        list = gtk_list_box_new()
        // The mark says which one plays; a selection would be a second, moving one.
        gtk_list_box_set_selection_mode(list.cast(), GTK_SELECTION_NONE)
        gtk_list_box_set_activate_on_single_click(list.cast(), 1)
        gtk_widget_add_css_class(list, "navigation-sidebar")
        Accessibility.setLabel(list, tr("Chapters"))
        scroller = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(scroller.cast(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(scroller.cast(), 1)
        gtk_scrolled_window_set_max_content_height(scroller.cast(), 360)
        gtk_widget_set_size_request(scroller, 300, -1)
        gtk_scrolled_window_set_child(scroller.cast(), list)
        gtk_popover_set_child(popover.cast(), scroller)
        Signal.connectPointer(list.raw, "row-activated") { [weak self] row in
            guard let self, let row else { return }
            let index = Int(gtk_list_box_row_get_index(row.cast()))
            guard self.rows.rows.indices.contains(index) else { return }
            gtk_popover_popdown(self.popover.cast())
            self.chosen?(self.rows.rows[index])
        }
    }

    var isOpen: Bool { gtk_widget_get_visible(popover) != 0 }

    /// Fills the list with `rows`, marks the chapter playing at `position` and opens it pointing
    /// at `rect` (its parent's coordinates), with the focus on the marked row.
    func open(_ rows: ChapterRows, position: Double, pointingTo rect: GdkRectangle) {
        show(rows, position: position)
        var point = rect
        gtk_popover_set_pointing_to(popover.cast(), &point)
        gtk_popover_popup(popover.cast())
        if let focus = marks[safe: current ?? 0]?.row { gtk_widget_grab_focus(focus) }
    }

    /// The rows as they should be now (rebuilt only when the chapters or their texts changed),
    /// and the mark on the chapter playing at `position`.
    func show(_ rows: ChapterRows, position: Double) {
        if rows != self.rows { rebuild(rows) }
        mark(rows.current(at: position))
    }

    private func rebuild(_ rows: ChapterRows) {
        self.rows = rows
        while let row = gtk_widget_get_first_child(list) { gtk_list_box_remove(list.cast(), row) }
        marks = rows.rows.map(makeRow)
        for entry in marks { gtk_list_box_append(list.cast(), entry.row) }
        current = nil
        marked = false
    }

    private func mark(_ index: Int?) {
        guard !marked || index != current else { return }
        for (i, entry) in marks.enumerated() {
            let on = i == index
            gtk_widget_set_opacity(entry.check, on ? 1 : 0)
            if on { gtk_widget_add_css_class(entry.name, "heading") } else { gtk_widget_remove_css_class(entry.name, "heading") }
            // Translators: a chapter list's row for the chapter playing; %@ is its name and start.
            Accessibility.setLabel(entry.row, on ? String(format: tr("%@ (playing)"), entry.label) : entry.label)
        }
        current = index
        marked = true
    }

    private func makeRow(_ row: ChapterRows.Row) -> (row: UnsafeMutablePointer<GtkWidget>, check: UnsafeMutablePointer<GtkWidget>,
                                                       name: UnsafeMutablePointer<GtkWidget>, label: String) {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        let check = gtk_image_new_from_icon_name("object-select-symbolic")!
        gtk_widget_set_opacity(check, 0)
        let name = gtk_label_new(row.name)!
        gtk_label_set_xalign(name.cast(), 0)
        gtk_label_set_ellipsize(name.cast(), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(name, 1)
        gtk_widget_set_tooltip_text(name, row.name)
        let time = gtk_label_new(row.time)!
        gtk_widget_add_css_class(time, "dim-label")
        gtk_widget_add_css_class(time, "numeric")
        gtk_box_append(box.cast(), check)
        gtk_box_append(box.cast(), name)
        gtk_box_append(box.cast(), time)
        let listRow = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(listRow.cast(), box)
        // Translators: a chapter list's row as a screen reader reads it; %1$@ is the chapter's
        // name, %2$@ the time it starts at.
        let label = String(format: tr("%1$@, from %2$@"), row.name, row.time)
        return (listRow, check, name, label)
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
