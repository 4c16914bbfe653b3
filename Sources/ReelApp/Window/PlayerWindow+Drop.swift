import CGtk
import ReelGtk

/// Files, folders, playlists and URLs dropped on the window open; subtitle files dropped on
/// playing media, and a sound file on a playing video, are added to it.
/// Threading: main thread only.
extension PlayerWindow {
    func installDrop() {
        var types = [reel_type_file_list(), reel_type_string()]
        let target = gtk_drop_target_new(0, GDK_ACTION_COPY)!
        gtk_drop_target_set_gtypes(target, &types, gsize(types.count))
        Signal.connectDrop(target.raw) { [weak self] value in
            guard let self, let value else { return false }
            if g_type_check_value_holds(value, reel_type_file_list()) != 0 {
                // Several files (or a folder, or a playlist) become the queue.
                var names: [String] = []
                var node = g_value_get_boxed(value).map { UnsafeMutablePointer<GSList>(OpaquePointer($0)) }
                while let current = node {
                    if let data = current.pointee.data {
                        let file = OpaquePointer(data)
                        if let name = GString.take(g_file_get_path(file)) ?? GString.take(g_file_get_uri(file)) { names.append(name) }
                    }
                    node = current.pointee.next
                }
                guard !names.isEmpty else { return false }
                // Subtitle and sound files dropped on playing media are added to it, not opened.
                if self.subtitles?.accepts(droppedPaths: names) == true { return true }
                if self.audioFiles?.accepts(droppedPaths: names) == true { return true }
                self.open(names)
                return true
            }
            if let text = g_value_get_string(value).map({ String(cString: $0) }) {
                let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty && !$0.hasPrefix("#") }
                guard !lines.isEmpty else { return false }
                self.open(lines)
                return true
            }
            return false
        }
        gtk_widget_add_controller(window, target.cast())
    }
}
