import CGtk
import Foundation
import ReelEngine

/// The message in the middle of the player when there is no picture, as a libadwaita status
/// page: an invitation to open something (with what was played lately), or a readable error.
/// The window stays usable either way.
/// Threading: main thread only.
@MainActor
final class StatusPage {
    private let box: UnsafeMutablePointer<GtkWidget>
    private let page: OpaquePointer
    private let demoButton: UnsafeMutablePointer<GtkWidget>
    let recent = StatusRecentList()

    init(builder: UIBuilder) {
        box = builder.widget("status-page")
        demoButton = builder.widget("status-demo-button")
        let buttons: UnsafeMutablePointer<GtkWidget> = builder.widget("status-buttons")
        let made = adw_status_page_new()!
        page = OpaquePointer(made)
        // The buttons move from the placeholder box into the page, under its text, with the
        // recent list under them.
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        g_object_ref(buttons.raw)
        gtk_box_remove(box.cast(), buttons)
        gtk_box_append(content.cast(), buttons)
        g_object_unref(buttons.raw)
        gtk_box_append(content.cast(), recent.widget)
        adw_status_page_set_child(page, content)
        // With the recent list under it, the page's icon and title take less room (libadwaita's
        // compact status page), so that the list fits a window of the film's size.
        recent.shownChanged = { shown in
            if shown { gtk_widget_add_css_class(made, "compact") } else { gtk_widget_remove_css_class(made, "compact") }
        }
        // The page fills the player and centres (and, when small, scrolls) its own content.
        gtk_widget_set_vexpand(made, 1)
        gtk_box_append(box.cast(), made)
    }

    func showWelcome(demoAvailable: Bool) {
        show(icon: "video-x-generic-symbolic", title: tr("Open a Video"),
             detail: tr("Drop a video or a playlist here, or open a file or an address."))
        gtk_widget_set_visible(demoButton, demoAvailable ? 1 : 0)
        recent.showing = true
    }

    /// What was played lately, listed while the page invites to open something.
    func showRecent(_ rows: [RecentRow]) { recent.show(rows) }

    func showError(_ error: PlayerError, source: String) {
        show(icon: "dialog-error-symbolic", title: String(format: tr("Cannot Play “%@”"), source), detail: error.message)
        gtk_widget_set_visible(demoButton, 0)
        recent.showing = false
    }

    func hide() { gtk_widget_set_visible(box, 0) }
    var isVisible: Bool { gtk_widget_get_visible(box) != 0 }

    private func show(icon name: String, title text: String, detail description: String) {
        adw_status_page_set_icon_name(page, name)
        adw_status_page_set_title(page, text)
        // The description is Pango markup; an error message may hold any character.
        adw_status_page_set_description(page, GString.take(g_markup_escape_text(description, -1)) ?? "")
        gtk_widget_set_visible(box, 1)
    }
}
