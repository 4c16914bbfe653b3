import CGtk
import ReelEngine
import ReelGtk

/// The picture's right-click menu (ui/window.ui's context-menu): play or pause, fullscreen and
/// deinterlacing, named for what they do or are now; the main menu's own Speed, Subtitles, Audio and Picture submenus (the
/// same menus, with the same track lists); Save Picture, Media Information and Chapters. Every item is a
/// window action, so the menu is as sensitive as `ActionAvailability` makes them.
/// Threading: main thread only.
@MainActor
final class PictureMenu {
    /// The menu to hand to the player view.
    let model: UnsafeMutableRawPointer
    private let nowItems: OpaquePointer
    private var shown: (playing: Bool, fullscreen: Bool, deinterlace: DeinterlaceMode)?

    init(builder: UIBuilder) {
        model = builder.object("context-menu")
        nowItems = OpaquePointer(builder.object("context-now-items"))
        let submenus = OpaquePointer(builder.object("context-submenus"))
        let linked: [(label: String, id: String, action: String)] = [
            (tr("Playback _Speed"), "speed-submenu", "win.speed-menu"),
            (tr("Subtitl_es"), "subtitles-submenu", "win.subtitles-menu"),
            (tr("_Audio"), "audio-submenu", "win.audio-menu"),
            (tr("Pic_ture"), "picture-submenu", "win.picture-menu"),
        ]
        for submenu in linked {
            let item = g_menu_item_new_submenu(submenu.label, builder.object(submenu.id).cast())!
            // As in the main menu: the submenu as sensitive as its action.
            g_menu_item_set_action_and_target_value(item, submenu.action, nil)
            g_menu_append_item(submenus, item)
            g_object_unref(item.raw.cast(to: GObject.self))
        }
        update(playing: false, fullscreen: false, deinterlace: .auto)
    }

    /// Names the first items for what they do now: Pause while playing, else Play; Leave
    /// Fullscreen in fullscreen; and the deinterlacing mode, which the item cycles (as `d`).
    func update(playing: Bool, fullscreen: Bool, deinterlace: DeinterlaceMode) {
        if let shown, shown == (playing, fullscreen, deinterlace) { return }
        shown = (playing, fullscreen, deinterlace)
        g_menu_remove_all(nowItems)
        g_menu_append(nowItems, playing ? tr("_Pause") : tr("_Play"), "win.toggle-pause")
        g_menu_append(nowItems, fullscreen ? tr("Leave _Fullscreen") : tr("_Fullscreen"), "win.fullscreen")
        let label = switch deinterlace {
        case .auto: tr("_Deinterlace: Auto")
        case .on: tr("_Deinterlace: On")
        case .off: tr("_Deinterlace: Off")
        }
        g_menu_append(nowItems, label, "win.cycle-deinterlace")
    }
}
