import CGtk
import ReelGtk

/// The empty window's list of what was played lately.
/// Threading: main thread only.
extension PlayerWindow {
    func showRecent() {
        let entries = RecentList.pick(recent?.entries() ?? [], limit: RecentList.pageLength)
        // GLib's home (it honours $HOME, as the file chooser does).
        let home = String(cString: g_get_home_dir())
        playerView.showRecent(entries.map { RecentRow(title: $0.name, detail: $0.detail(home: home), source: $0.source) }) { [weak self] in
            self?.open($0)
        }
    }
}
