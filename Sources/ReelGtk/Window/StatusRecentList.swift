import CGtk
import ReelEngine

/// One line of the empty window's recent list: what it is called, where it is, what opens it.
/// Threading: a value type.
public struct RecentRow: Equatable, Sendable {
    public var title: String
    public var detail: String
    public var source: String

    public init(title: String, detail: String, source: String) {
        self.title = title
        self.detail = detail
        self.source = source
    }
}

/// "Recent" under the empty window's buttons: the last things played as a boxed list, as
/// GNOME apps list recent items on their start page; a click or Enter opens one again.
/// Hidden while there is nothing to list.
/// Threading: main thread only.
@MainActor
final class StatusRecentList {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private var rows: [RecentRow] = []
    var open: (@MainActor (String) -> Void)?
    /// The page invites to open something (an error page lists nothing under its message).
    var showing = true {
        didSet { updateVisibility() }
    }

    init() {
        // A clamp keeps long names from widening the page past the window.
        widget = adw_clamp_new()
        adw_clamp_set_maximum_size(OpaquePointer(widget), 420)
        gtk_widget_set_margin_top(widget, 24)
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        let heading = gtk_label_new(tr("Recent"))!
        gtk_widget_add_css_class(heading, "heading")
        gtk_label_set_xalign(heading.cast(), 0)
        gtk_box_append(column.cast(), heading)
        list = gtk_list_box_new()
        gtk_list_box_set_selection_mode(list.cast(), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(list, "boxed-list")
        Accessibility.setLabel(list, tr("Recent"))
        gtk_box_append(column.cast(), list)
        adw_clamp_set_child(OpaquePointer(widget), column)
        Signal.connectPointer(list.raw, "row-activated") { [weak self] row in
            guard let self, let row else { return }
            let index = Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self)))
            if self.rows.indices.contains(index) { self.open?(self.rows[index].source) }
        }
        updateVisibility()
    }

    func show(_ newRows: [RecentRow]) {
        guard newRows != rows else { return }
        rows = newRows
        while let child = gtk_widget_get_first_child(list) { gtk_list_box_remove(list.cast(), child) }
        for row in rows {
            let made = adw_action_row_new()!
            let preferences = made.cast(to: AdwPreferencesRow.self)
            let action = made.cast(to: AdwActionRow.self)
            // Names are shown as they are: a file may be called anything, markup included.
            adw_preferences_row_set_use_markup(preferences, 0)
            adw_preferences_row_set_title(preferences, row.title)
            adw_action_row_set_subtitle(action, row.detail)
            adw_action_row_set_subtitle_lines(action, 1)
            adw_action_row_set_title_lines(action, 1)
            gtk_list_box_row_set_activatable(made.cast(), 1)
            let arrow = gtk_image_new_from_icon_name("go-next-symbolic")!
            adw_action_row_add_suffix(action, arrow)
            gtk_list_box_append(list.cast(), made)
        }
        updateVisibility()
    }

    var isShown: Bool { showing && !rows.isEmpty }
    /// Called when the list comes or goes (the page makes room for it).
    var shownChanged: (@MainActor (Bool) -> Void)?

    private func updateVisibility() {
        let shown = isShown
        guard (gtk_widget_get_visible(widget) != 0) != shown else { return }
        gtk_widget_set_visible(widget, shown ? 1 : 0)
        shownChanged?(shown)
    }
}
