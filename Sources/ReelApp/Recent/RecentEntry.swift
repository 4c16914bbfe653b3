import Foundation

/// One thing Reel played, as the desktop's recent list keeps it: a local file or a web address.
/// Threading: a value type.
struct RecentEntry: Equatable, Sendable {
    /// The recent list's key: a `file://` URI or the address itself.
    var uri: String
    /// What Reel opens again: the file's path, or the address.
    var source: String
    /// What people read: the media's title for an address, the file's name otherwise.
    var name: String
    /// When it was last played (seconds since 1970).
    var played: Int64
    var isRemote: Bool
    /// For a local file: it is still where it was.
    var exists: Bool

    /// The line under the name: the file's folder (home as `~`) or the address's server.
    func detail(home: String = NSHomeDirectory()) -> String {
        if isRemote { return URL(string: uri)?.host ?? uri }
        let folder = (source as NSString).deletingLastPathComponent
        if folder == home { return "~" }
        if folder.hasPrefix(home + "/") { return "~" + folder.dropFirst(home.count) }
        return folder
    }

    /// The name as a menu item's label: a long one shortened in the middle (menus do not
    /// ellipsize, and would widen to the longest), `_` doubled (the menu reads it as a
    /// mnemonic's mark).
    var menuLabel: String {
        let short = name.count > Self.longestLabel
            ? String(name.prefix(Self.longestLabel / 2 - 1)) + "…" + String(name.suffix(Self.longestLabel / 2 - 1)) : name
        return short.replacingOccurrences(of: "_", with: "__")
    }

    static let longestLabel = 60
}

/// Which recent entries Reel lists, in which order: the newest first, each once, files that
/// went left out (a moved film would only fail to open).
/// Threading: pure functions.
enum RecentList {
    /// How many the Open Recent menu lists, and the empty window's page.
    static let menuLength = 10
    static let pageLength = 5
    /// How many addresses Open an Address offers.
    static let addressLength = 5

    static func pick(_ entries: [RecentEntry], limit: Int, addressesOnly: Bool = false) -> [RecentEntry] {
        var seen = Set<String>()
        return entries
            .filter { ($0.isRemote || $0.exists) && (!addressesOnly || $0.isRemote) }
            .enumerated()
            .sorted { $0.element.played != $1.element.played ? $0.element.played > $1.element.played : $0.offset < $1.offset }
            .map(\.element)
            .filter { seen.insert($0.uri).inserted }
            .prefix(limit)
            .map { $0 }
    }
}
