import CGtk
import ReelEngine
import ReelGtk

/// A web page's qualities in the main menu's Quality submenu (its pictures Reel plays, tallest
/// first), the playing one checked; choosing one plays it from the same picture. The submenu
/// is offered only while a page offers more than one.
/// Threading: main thread only.
@MainActor
final class QualityMenu {
    private let items: OpaquePointer
    private let action: OpaquePointer
    private let submenu: OpaquePointer
    private var shown: [WebFormatChoice] = []

    init(builder: UIBuilder, window: UnsafeMutablePointer<GtkWidget>, player: TrackSelection) {
        items = OpaquePointer(builder.object("quality-items"))
        submenu = Actions.add(window.raw, "quality-menu") {}
        action = Actions.addStringChoice(window.raw, "web-format", initial: "") { [weak player] id in player?.selectWebFormat(id) }
        Actions.setEnabled(submenu, false)
    }

    /// The qualities of what is open now (none for anything but a web page).
    func follow(_ info: MediaInfo?) {
        let choices = info?.webFormats ?? []
        Actions.setState(action, string: info?.webFormat ?? "")
        Actions.setEnabled(submenu, choices.count > 1)
        guard choices != shown else { return }
        shown = choices
        g_menu_remove_all(items)
        for choice in choices {
            let item = g_menu_item_new(Self.label(choice, among: choices), nil)!
            g_menu_item_set_action_and_target_value(item, "win.web-format", g_variant_new_string(choice.id))
            g_menu_append_item(items, item)
            g_object_unref(item.raw.cast(to: GObject.self))
        }
    }

    /// "720p", with yt-dlp's note or id beside it when two are as tall; the note alone without
    /// a height.
    static func label(_ choice: WebFormatChoice, among all: [WebFormatChoice]) -> String {
        let name = choice.note ?? choice.id
        guard let height = choice.height else { return name.replacingOccurrences(of: "_", with: "__") }
        let twins = all.filter { $0.height == height }.count > 1
        return (twins ? "\(height)p (\(name))" : "\(height)p").replacingOccurrences(of: "_", with: "__")
    }
}
