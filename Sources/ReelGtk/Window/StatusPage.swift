import CGtk
import ReelEngine

/// The message in the middle of the player when there is no picture: an invitation to open
/// something, or a readable error. The window stays usable either way.
/// Threading: main thread only.
@MainActor
final class StatusPage {
    private let box: UnsafeMutablePointer<GtkWidget>
    private let icon: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let detail: UnsafeMutablePointer<GtkWidget>
    private let demoButton: UnsafeMutablePointer<GtkWidget>

    init(builder: UIBuilder) {
        box = builder.widget("status-page")
        icon = builder.widget("status-icon")
        title = builder.widget("status-title")
        detail = builder.widget("status-description")
        demoButton = builder.widget("status-demo-button")
    }

    func showWelcome(demoAvailable: Bool) {
        show(icon: "video-x-generic-symbolic", title: "Open a Video",
             detail: "Drop a video or a playlist here, or open a file or an address.")
        gtk_widget_set_visible(demoButton, demoAvailable ? 1 : 0)
    }

    func showError(_ error: PlayerError, source: String) {
        show(icon: "dialog-error-symbolic", title: "Cannot Play “\(source)”", detail: error.message)
        gtk_widget_set_visible(demoButton, 0)
    }

    func hide() { gtk_widget_set_visible(box, 0) }
    var isVisible: Bool { gtk_widget_get_visible(box) != 0 }

    private func show(icon name: String, title text: String, detail description: String) {
        gtk_image_set_from_icon_name(icon.cast(), name)
        gtk_label_set_text(title.cast(), text)
        gtk_label_set_text(detail.cast(), description)
        gtk_widget_set_visible(box, 1)
    }
}
