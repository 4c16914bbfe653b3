import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// What Reel played, kept in GTK's recent manager (`recently-used.xbel`): the desktop's Recent in
/// Files and GNOME Shell's search read the same list, and Reel's Open Recent lists its own part
/// of it (its group). Files and web addresses both go in, as Totem did. The `remember-recent`
/// preference off keeps nothing and forgets what was kept; GTK's own switch for the whole
/// desktop (`gtk-recent-files-enabled`) is honoured by the manager itself.
/// Threading: main thread only.
@MainActor
final class RecentHistory {
    /// The recent list's group that marks what Reel played.
    static let group = "Reel"
    private let manager: OpaquePointer
    private let settings: PlayerSettings
    private var observers: [@MainActor () -> Void] = []

    init(settings: PlayerSettings) {
        self.settings = settings
        manager = OpaquePointer(gtk_recent_manager_get_default())
        // The manager watches its file: another Reel (or another app) adding shows at once.
        Signal.connect(UnsafeMutableRawPointer(manager), "changed") { [weak self] in self?.announce() }
        settings.observe { [weak self] key in
            guard key == .rememberRecent, let self else { return }
            if !self.isOn { self.forget() }
            self.announce()
        }
    }

    var isOn: Bool { settings.bool(.rememberRecent) }

    /// Calls `observer` whenever the list or the preference changes.
    func observe(_ observer: @escaping @MainActor () -> Void) { observers.append(observer) }

    /// Keeps `source` as played just now; `title` names an address (a file keeps its name).
    func add(_ source: MediaSource, title: String?) {
        guard isOn, let uri = Self.uri(of: source) else { return }
        let name = source.isRemote ? (title?.isEmpty == false ? title : nil) : nil
        let mime = Self.mimeType(of: source)
        let strings: [UnsafeMutablePointer<CChar>?] = [name, mime, "Reel", "reel %u", Self.group].map { $0.flatMap { strdup($0) } }
        defer { strings.forEach { free($0) } }
        var groups: [UnsafeMutablePointer<CChar>?] = [strings[4], nil]
        groups.withUnsafeMutableBufferPointer { list in
            var data = GtkRecentData(display_name: strings[0], description: nil, mime_type: strings[1],
                                     app_name: strings[2], app_exec: strings[3], groups: list.baseAddress, is_private: 0)
            _ = gtk_recent_manager_add_full(UnsafeMutablePointer(manager), uri, &data)
        }
    }

    /// Reel's part of the recent list, as `RecentList` picks from it.
    func entries() -> [RecentEntry] {
        guard isOn else { return [] }
        var found: [RecentEntry] = []
        var node = gtk_recent_manager_get_items(UnsafeMutablePointer(manager))
        let list = node
        defer { g_list_free_full(list) { gtk_recent_info_unref(OpaquePointer($0)) } }
        while let current = node {
            node = current.pointee.next
            let info = OpaquePointer(current.pointee.data)
            guard let info, Self.isReels(info), let uriText = gtk_recent_info_get_uri(info) else { continue }
            let uri = String(cString: uriText)
            let local = gtk_recent_info_is_local(info) != 0
            let path = local ? GString.take(g_filename_from_uri(uri, nil, nil)) : nil
            if local && path == nil { continue }
            let name = gtk_recent_info_get_display_name(info).map { String(cString: $0) } ?? uri
            let played = gtk_recent_info_get_modified(info).map { Int64(g_date_time_to_unix($0)) } ?? 0
            found.append(RecentEntry(uri: uri, source: path ?? uri, name: name, played: played, isRemote: !local,
                                     exists: local ? gtk_recent_info_exists(info) != 0 : true))
        }
        return found
    }

    /// Takes Reel's entries out of the recent list (what other apps keep stays).
    func forget() {
        var node = gtk_recent_manager_get_items(UnsafeMutablePointer(manager))
        let list = node
        var uris: [String] = []
        while let current = node {
            node = current.pointee.next
            let info = OpaquePointer(current.pointee.data)
            if let info, Self.isReels(info), let uri = gtk_recent_info_get_uri(info) {
                uris.append(String(cString: uri))
            }
        }
        g_list_free_full(list) { gtk_recent_info_unref(OpaquePointer($0)) }
        for uri in uris { _ = gtk_recent_manager_remove_item(UnsafeMutablePointer(manager), uri, nil) }
    }

    private func announce() { observers.forEach { $0() } }

    /// An entry Reel added: in its group, or registered by its name (an entry has been seen in
    /// a busy test run with Reel's registration but without the group).
    private static func isReels(_ info: OpaquePointer) -> Bool {
        gtk_recent_info_has_group(info, group) != 0 || gtk_recent_info_has_application(info, "Reel") != 0
    }

    /// A file's `file://` URI (the recent list's form), or the address.
    static func uri(of source: MediaSource) -> String? {
        switch source.location {
        case .file(let path): GString.take(g_filename_to_uri(path, nil, nil))
        case .remote(let url): url
        }
    }

    /// The MIME type the recent list needs, guessed from the name as Files would (an address by
    /// its path's extension).
    static func mimeType(of source: MediaSource) -> String {
        let name: String = switch source.location {
        case .file(let path): path
        case .remote(let url): URL(string: url)?.path ?? url
        }
        let type = GString.take(g_content_type_guess(name, nil, 0, nil)).flatMap { GString.take(g_content_type_get_mime_type($0)) }
        return type ?? "application/octet-stream"
    }
}
