import CGtk
import ReelEngine
import ReelGtk

/// The Audio menu's streams: each audio stream of the media by language, title, codec and
/// channels, the playing one checked; choosing one plays it from the same picture.
/// Threading: main thread only.
@MainActor
final class AudioTrackMenu {
    private let items: OpaquePointer?
    private let action: OpaquePointer
    /// The person chose stream `index` (the controller remembers it for the file).
    var chosen: (@MainActor (Int) -> Void)?

    init(window: UnsafeMutablePointer<GtkWidget>, player: TrackSelection, items: OpaquePointer?) {
        self.items = items
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        action = g_simple_action_new_stateful("audio-track", type, g_variant_new_string(""))!
        let box = ChosenBox()
        Signal.connectAction(action.raw) { [weak player] parameter in
            guard let parameter, let index = Int(String(cString: g_variant_get_string(parameter, nil))) else { return }
            player?.selectAudioStream(index)
            box.menu?.chosen?(index)
        }
        g_action_map_add_action(OpaquePointer(window.raw), action)
        // The window's action map keeps it alive as long as the window, which outlives this.
        g_object_unref(action.raw.cast(to: GObject.self))
        box.menu = self
    }

    /// Lets the action's handler reach the menu without keeping it alive.
    private final class ChosenBox { weak var menu: AudioTrackMenu? }

    func rebuild(_ info: MediaInfo) {
        g_simple_action_set_state(action, g_variant_new_string(info.selectedAudioStream.map(String.init) ?? ""))
        guard let items else { return }
        g_menu_remove_all(items)
        let streams = info.streams.filter { $0.kind == .audio }
        for stream in streams {
            let item = g_menu_item_new(Self.label(of: stream, in: info), nil)!
            g_menu_item_set_action_and_target_value(item, "win.audio-track", g_variant_new_string(String(stream.index)))
            g_menu_append_item(items, item)
            g_object_unref(item.raw.cast(to: GObject.self))
        }
    }

    /// A stream as the menu names it: language and title, else its number, then codec and channels.
    static func label(of stream: StreamInfo, in info: MediaInfo) -> String {
        let n = (info.streams.filter { $0.kind == .audio }.firstIndex { $0.index == stream.index } ?? 0) + 1
        var parts = [LanguageNames.name(for: stream.language), stream.title].compactMap { $0 }.filter { !$0.isEmpty }
        // Translators: an audio stream without language or title, by its number.
        if parts.isEmpty { parts.append(String(format: tr("Track %ld"), n)) }
        var label = parts.joined(separator: " — ")
        if stream.channels != nil, let layout = ChannelNames.describe(channels: stream.channels, layout: nil) {
            label += " (\(stream.codec), \(layout))"
        }
        return label
    }

    /// Plays the audio stream after the one playing (the first after the last), as a choice
    /// from the menu would; nothing with fewer than two.
    func chooseNext(in info: MediaInfo) {
        let streams = info.streams.filter { $0.kind == .audio }
        guard streams.count > 1 else { return }
        let current = streams.firstIndex { $0.index == info.selectedAudioStream } ?? -1
        let next = streams[(current + 1) % streams.count]
        g_action_activate(action, g_variant_new_string(String(next.index)))
    }
}
