import Foundation
import ReelEngine
import ReelGtk

/// `org.mpris.MediaPlayer2.TrackList` over the queue: each item is named by an object path made
/// from its identity in the queue (it stays while the item is in the queue, whatever moves
/// around it); remotes read the list and each item's metadata, play an item, add and remove
/// items; a new queue, items added and removed and an item's metadata becoming known are
/// signalled, and the `Tracks` property is invalidated at each change of the list (its value
/// is not sent with the change, as the specification asks).
/// Threading: main thread only.
@MainActor
final class MPRISTrackList {
    static let interface = "org.mpris.MediaPlayer2.TrackList"
    /// "No track": where an item added at the start goes after, and the current one of an empty list.
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    private static let prefix = "/io/github/reel/Reel/Track/"

    static func path(_ id: Int) -> String { prefix + String(id) }
    static func id(_ path: String) -> Int? { path.hasPrefix(prefix) ? Int(path.dropFirst(prefix.count)) : nil }

    private weak var host: MediaPlayerHost?
    /// An item's metadata as the remote knows it now (identity, source).
    private let metadata: @MainActor (Int, MediaSource) -> [String: Variant]
    /// What listeners last heard: the items listed, and of which queue.
    private var announced: [Int] = []
    private var announcedReplacements = 0
    /// The metadata listeners last had of items that were current, so that what becomes known
    /// as an item opens (its title, length, art) is signalled once.
    private var announcedMetadata: [Int: String] = [:]

    init(host: MediaPlayerHost, metadata: @escaping @MainActor (Int, MediaSource) -> [String: Variant]) {
        self.host = host
        self.metadata = metadata
    }

    /// The items listed, in the queue's arranged order: at most `QueuePanel.shownRows` of them
    /// around the current one, the rows the queue panel shows. The specification recommends a
    /// part of a long list: it gives context to what plays, not a way to browse 100,000 items,
    /// and each change would otherwise send them all.
    private var listed: [Int] {
        guard let queue = host?.queue else { return [] }
        return Array(queue.ids[QueuePanel.shownRange(count: queue.items.count, current: queue.current)])
    }

    func property(_ name: String) -> Variant? {
        switch name {
        case "Tracks": .objectPaths(listed.map(Self.path))
        case "CanEditTracks": .bool(true)
        default: nil
        }
    }

    func call(_ method: String, _ parameters: VariantReader) -> DBusObject.Reply {
        guard let host else { return .value(nil) }
        let queue = host.queue
        /// Where an item named by `path` is in the queue (nil: not in it, or not a track of ours).
        func index(_ path: String?) -> Int? { path.flatMap(Self.id).flatMap(queue.index(ofID:)) }
        switch method {
        case "GetTracksMetadata":
            guard let list = parameters.child(0) else { return Self.invalid("GetTracksMetadata takes a list of track ids") }
            // Ids not in the queue (any more) are left out. Looked up in one pass over the
            // queue: a remote asks for hundreds at once, and a queue may hold 100,000.
            let places = Dictionary(zip(queue.ids, queue.items.indices), uniquingKeysWith: { first, _ in first })
            let entries: [Variant] = (0..<list.count).compactMap { i in
                list.child(i)?.string.flatMap(Self.id).flatMap { places[$0] }
                    .map { .dictionary(metadata(queue.ids[$0], queue.items[$0])) }
            }
            return .value(.tuple([.array(of: "a{sv}", entries)]))
        case "GoTo":
            guard let path = parameters.child(0)?.string else { return Self.invalid("GoTo takes a track id") }
            // An item no longer in the queue is ignored, as specified.
            if let index = index(path) { host.select(index) }
        case "AddTrack":
            guard let uri = parameters.child(0)?.string, let after = parameters.child(1)?.string,
                  let setAsCurrent = parameters.child(2)?.bool else {
                return Self.invalid("AddTrack takes a URI, the track to add it after and whether to play it")
            }
            let position: Int
            if after == Self.noTrack {
                position = 0
            } else if let found = index(after) {
                position = found + 1
            } else {
                return Self.invalid("no track \(after) in the queue")
            }
            guard host.insert([uri], at: position) > 0 else { return Self.invalid("nothing to play in \(uri)") }
            // Added to an empty queue, it plays already.
            if setAsCurrent, host.queue.current != position { host.select(position) }
        case "RemoveTrack":
            guard let path = parameters.child(0)?.string else { return Self.invalid("RemoveTrack takes a track id") }
            if let index = index(path) { host.remove(at: index) }
        default:
            return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(Self.interface).\(method)")
        }
        return .value(nil)
    }

    private static func invalid(_ message: String) -> DBusObject.Reply {
        .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    /// Tells listeners what changed since they last heard: a new queue replaces the list
    /// (TrackListReplaced); items that left or joined the list are signalled one by one (a
    /// reordering only invalidates Tracks); the current item's metadata as it becomes known.
    func refresh(_ object: DBusObject) {
        guard let host else { return }
        let queue = host.queue
        let now = listed
        if host.replacements != announcedReplacements {
            announcedReplacements = host.replacements
            announced = now
            announcedMetadata = [:]
            object.emit(Self.interface, "TrackListReplaced",
                        .tuple([.objectPaths(now.map(Self.path)), .objectPath(queue.currentID.map(Self.path) ?? Self.noTrack)]))
            object.propertiesChanged(Self.interface, [:], invalidated: ["Tracks"])
        } else if now != announced {
            let stays = Set(now), was = Set(announced)
            for id in announced where !stays.contains(id) {
                announcedMetadata[id] = nil
                object.emit(Self.interface, "TrackRemoved", .tuple([.objectPath(Self.path(id))]))
            }
            for (place, id) in now.enumerated() where !was.contains(id) {
                guard let index = queue.index(ofID: id) else { continue }
                let after = place > 0 ? Self.path(now[place - 1]) : Self.noTrack
                object.emit(Self.interface, "TrackAdded",
                            .tuple([.dictionary(metadata(id, queue.items[index])), .objectPath(after)]))
            }
            announced = now
            object.propertiesChanged(Self.interface, [:], invalidated: ["Tracks"])
        }
        // Only the current item's metadata changes: it is the one opened. The first look at it
        // is what listeners could read before it opened.
        guard let id = queue.currentID, let source = queue.currentItem else { return }
        let entries = metadata(id, source)
        let text = MPRISService.describe(.dictionary(entries))
        defer { announcedMetadata[id] = text }
        guard let before = announcedMetadata[id], before != text else { return }
        object.emit(Self.interface, "TrackMetadataChanged", .tuple([.objectPath(Self.path(id)), .dictionary(entries)]))
    }
}
