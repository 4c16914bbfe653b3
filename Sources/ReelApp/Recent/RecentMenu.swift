import CGtk
import ReelGtk

/// The main menu's Open Recent: the last things played, newest first, each opening again on a
/// click; Clear Recent forgets them. The submenu is insensitive while there is nothing to list.
/// Threading: main thread only.
@MainActor
final class RecentMenu {
    private let items: OpaquePointer
    private let submenu: OpaquePointer
    private let clear: OpaquePointer

    init(builder: UIBuilder, window: UnsafeMutableRawPointer, history: RecentHistory,
         open: @escaping @MainActor (String) -> Void) {
        items = OpaquePointer(builder.object("recent-items"))
        submenu = Actions.add(window, "recent-menu") {}
        clear = Actions.add(window, "clear-recent") { [weak history] in history?.forget() }
        Actions.addWithString(window, "open-recent") { source in open(source) }
        history.observe { [weak self, weak history] in
            guard let history else { return }
            self?.show(RecentList.pick(history.entries(), limit: RecentList.menuLength))
        }
        show(RecentList.pick(history.entries(), limit: RecentList.menuLength))
    }

    private func show(_ entries: [RecentEntry]) {
        g_menu_remove_all(items)
        for entry in entries {
            let item = g_menu_item_new(entry.menuLabel, nil)!
            g_menu_item_set_action_and_target_value(item, "win.open-recent", g_variant_new_string(entry.source))
            g_menu_append_item(items, item)
            g_object_unref(item.raw.cast(to: GObject.self))
        }
        Actions.setEnabled(submenu, !entries.isEmpty)
        Actions.setEnabled(clear, !entries.isEmpty)
    }
}
