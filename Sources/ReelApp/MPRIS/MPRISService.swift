import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The desktop's media remote (media keys, the lock screen, GNOME's and KDE's media
/// controls, `playerctl`): `org.mpris.MediaPlayer2`, `.Player` and `.TrackList` on the session
/// bus at /org/mpris/MediaPlayer2, under the name org.mpris.MediaPlayer2.reel.
/// Threading: main thread only.
@MainActor
final class MPRISService {
    static let path = "/org/mpris/MediaPlayer2"
    static let root = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    private weak var host: MediaPlayerHost?
    /// The window, for fullscreen (set by the window once the remote is made).
    weak var window: MediaPlayerWindow? {
        didSet { refresh() }
    }
    /// The player the remote steers, and its model, which the remote reads (position, volume,
    /// speed, what is open).
    private let player: PlaybackController
    private let model: PlayerModel
    private let seeker: Seeker
    private var object: DBusObject?
    private var nameID: guint = 0
    /// What was last announced, so a change is sent once and unchanged values not at all.
    private var announced: [String: String] = [:]
    private var trackList: MPRISTrackList!
    private let art = NowPlayingArt()
    /// What is known of each item opened so far (title, tags, length), by identity: the
    /// track list tells it for items that are not playing.
    private var known: [Int: [String: Variant]] = [:]
    /// The item whose media the player has loaded (the queue moves on before the next opens).
    private var loadedID: Int?
    /// The queue `known` is about (a new queue's identities are all new).
    private var knownQueue = 0

    /// Exports the object on `connection` and asks for the well-known name. `instance` is
    /// appended to the name when several Reels may run (measured runs are not unique).
    init(host: MediaPlayerHost, view: PlayerView, connection: OpaquePointer, instance: String? = nil) throws {
        self.host = host
        player = view.player
        model = view.model
        seeker = view.seeker
        trackList = MPRISTrackList(host: host) { [weak self] id, source in self?.trackMetadata(id, source) ?? [:] }
        object = try DBusObject(connection: connection, path: Self.path, introspection: MPRISIntrospection.xml,
                                handlers: .init(
                                    method: { [weak self] interface, method, parameters in
                                        self?.call(interface, method, parameters) ?? .value(nil)
                                    },
                                    get: { [weak self] interface, property in self?.property(interface, property) },
                                    set: { [weak self] interface, property, value in
                                        self?.set(interface, property, value) ?? false
                                    }))
        let name = "org.mpris.MediaPlayer2.reel" + (instance.map { ".\($0)" } ?? "")
        nameID = g_bus_own_name_on_connection(connection, name, G_BUS_NAME_OWNER_FLAGS_NONE, nil, nil, nil, nil)
    }

    func shutdown() {
        if nameID != 0 { g_bus_unown_name(nameID) }
        nameID = 0
        object?.unregister()
        object = nil
    }

    // MARK: Following the player

    /// Announces what a change of the player's model changed; seeks are signalled (`Seeked`).
    func follow(_ change: PlayerModel.Change) {
        switch change.moment {
        case .loaded(let info):
            if let host, host.replacements != knownQueue {
                known = [:]
                knownQueue = host.replacements
            }
            loadedID = host?.queue.currentID
            if let source = host?.currentSource {
                art.make(for: source, info: info) { [weak self] in self?.refresh() }
            }
            refresh()
            return
        case .landed(let position):
            object?.emit(Self.playerInterface, "Seeked", .tuple([.int64(Self.microseconds(position))]))
        default:
            break
        }
        if change.contains([.state, .sound, .speed, .media, .duration]) { refresh() }
    }

    /// Sends PropertiesChanged for whatever differs from what listeners last heard, and the
    /// track list's changes.
    func refresh() {
        guard let object else { return }
        object.propertiesChanged(Self.root, changes(["Fullscreen"], of: rootProperty))
        object.propertiesChanged(Self.playerInterface, changes(["PlaybackStatus", "Metadata", "Volume", "Rate", "LoopStatus",
                                                                "Shuffle", "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause",
                                                                "CanSeek"], of: playerProperty))
        trackList.refresh(object)
    }

    private func changes(_ names: [String], of property: (String) -> Variant?) -> [String: Variant] {
        var changed: [String: Variant] = [:]
        for name in names {
            guard let value = property(name) else { continue }
            let key = Self.describe(value)
            if announced[name] != key {
                announced[name] = key
                changed[name] = value
            }
        }
        return changed
    }

    // MARK: Methods

    private func call(_ interface: String, _ method: String, _ parameters: VariantReader) -> DBusObject.Reply {
        guard let host else { return .value(nil) }
        if interface == MPRISTrackList.interface { return trackList.call(method, parameters) }
        switch (interface, method) {
        case (Self.root, "Raise"): host.raise()
        case (Self.root, "Quit"): host.quit()
        case (Self.playerInterface, "Play"):
            if model.hasMedia { player.play() }
        case (Self.playerInterface, "Pause"): player.pause()
        case (Self.playerInterface, "PlayPause"):
            if model.state == .playing || model.state == .stalled { player.pause() } else if model.hasMedia { player.play() }
        case (Self.playerInterface, "Stop"): host.stop()
        case (Self.playerInterface, "Next"): if let window { window.remoteNext() } else { host.next() }
        case (Self.playerInterface, "Previous"): if let window { window.remotePrevious() } else { host.previous() }
        case (Self.playerInterface, "Seek"):
            guard let offset = parameters.child(0)?.int64 else { return Self.invalid("Seek takes an offset in µs") }
            guard model.hasMedia else { break }
            let target = model.seekBase(now: Clock.now) + Double(offset) / 1_000_000
            // Past the end is the next track, as the specification says; before the start is 0.
            if let duration = model.duration, target >= duration {
                if host.canGoNext { host.next() }
            } else {
                seeker.seek(to: target)
            }
        case (Self.playerInterface, "SetPosition"):
            guard let track = parameters.child(0)?.string, let position = parameters.child(1)?.int64 else {
                return Self.invalid("SetPosition takes a track id and a position in µs")
            }
            // A stale track id (the track changed meanwhile) is ignored, as specified.
            guard track == host.queue.currentID.map(MPRISTrackList.path), model.hasMedia else { break }
            let seconds = Double(position) / 1_000_000
            guard seconds >= 0, seconds <= (model.duration ?? .infinity) else { break }
            seeker.seek(to: seconds)
        case (Self.playerInterface, "OpenUri"):
            guard let uri = parameters.child(0)?.string else { return Self.invalid("OpenUri takes a URI") }
            host.open(uri: uri)
        default:
            return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(interface).\(method)")
        }
        return .value(nil)
    }

    private static func invalid(_ message: String) -> DBusObject.Reply {
        .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    // MARK: Properties

    private func property(_ interface: String, _ name: String) -> Variant? {
        switch interface {
        case Self.root: rootProperty(name)
        case MPRISTrackList.interface: trackList.property(name)
        default: playerProperty(name)
        }
    }

    private func rootProperty(_ name: String) -> Variant? {
        switch name {
        case "CanQuit", "CanRaise", "HasTrackList": return .bool(true)
        case "CanSetFullscreen": return .bool(window != nil)
        case "Fullscreen": return .bool(window?.isFullscreen ?? false)
        case "Identity": return .string("Reel")
        case "DesktopEntry": return .string(ReelApplication.id)
        case "SupportedUriSchemes": return .strings(["file", "http", "https"])
        case "SupportedMimeTypes": return .strings(MPRISIntrospection.mimeTypes)
        default: return nil
        }
    }

    private func playerProperty(_ name: String) -> Variant? {
        guard let host else { return nil }
        let hasMedia = model.hasMedia
        switch name {
        case "PlaybackStatus": return .string(host.isStopped && model.state != .playing ? "Stopped" : Self.status(model.state))
        case "LoopStatus": return .string(host.loopMode.mprisName)
        case "Rate": return .double(model.speed)
        case "Shuffle": return .bool(host.shuffle)
        case "Metadata": return .dictionary(metadata())
        case "Volume": return .double(model.sound.isMuted ? 0 : model.sound.volume)
        case "Position": return .int64(hasMedia ? Self.microseconds(model.livePosition(now: Clock.now)) : 0)
        case "MinimumRate": return .double(speedRange.lowerBound)
        case "MaximumRate": return .double(speedRange.upperBound)
        case "CanGoNext": return .bool(window?.remoteCanGoNext ?? host.canGoNext)
        case "CanGoPrevious": return .bool(window?.remoteCanGoPrevious ?? host.canGoPrevious)
        case "CanPlay", "CanPause": return .bool(hasMedia)
        case "CanSeek": return .bool(hasMedia && (model.mediaInfo?.isSeekable ?? false))
        case "CanControl": return .bool(true)
        default: return nil
        }
    }

    private func set(_ interface: String, _ name: String, _ value: VariantReader) -> Bool {
        let value = value.unboxed
        if interface == Self.root, name == "Fullscreen", let on = value.bool, let window {
            // Announced once the window manager has done it (the window's notify).
            window.setFullscreen(on)
            return true
        }
        guard interface == Self.playerInterface, let host else { return false }
        switch name {
        case "Volume":
            guard let volume = value.double else { return false }
            // Negative means silence; louder than full is not offered.
            player.setMuted(false)
            player.setVolume(min(max(volume, 0), 1))
        case "Rate":
            guard let rate = value.double, rate > 0 else { return false }
            player.setSpeed(min(max(rate, speedRange.lowerBound), speedRange.upperBound))
        case "LoopStatus":
            guard let text = value.string, let mode = LoopMode(mprisName: text) else { return false }
            host.loopMode = mode
        case "Shuffle":
            guard let on = value.bool else { return false }
            host.shuffle = on
        default:
            return false
        }
        refresh()
        return true
    }

    /// An item's metadata: what is known of it (its title, tags and length once it has been
    /// opened; else its file name), where it is, and its picture once one is written.
    private func trackMetadata(_ id: Int, _ source: MediaSource) -> [String: Variant] {
        if id == loadedID, let info = model.mediaInfo {
            var entries: [String: Variant] = ["xesam:title": .string(info.displayTitle)]
            if let duration = model.duration ?? info.duration { entries["mpris:length"] = .int64(Self.microseconds(duration)) }
            if let artist = info.metadata["artist"] ?? info.metadata["ARTIST"] { entries["xesam:artist"] = .strings([artist]) }
            if let album = info.metadata["album"] ?? info.metadata["ALBUM"] { entries["xesam:album"] = .string(album) }
            known[id] = entries
        }
        var entries = known[id] ?? ["xesam:title": .string(source.displayName)]
        entries["mpris:trackid"] = .objectPath(MPRISTrackList.path(id))
        entries["xesam:url"] = .string(Self.uri(source.description))
        if let art = art.url(for: source) { entries["mpris:artUrl"] = .string(art) }
        return entries
    }

    /// The current item's metadata, once something has opened.
    private func metadata() -> [String: Variant] {
        guard let host, model.mediaInfo != nil, let id = host.queue.currentID, let source = host.queue.currentItem else { return [:] }
        return trackMetadata(id, source)
    }

    static func uri(_ source: String) -> String {
        if source.contains("://") { return source }
        return URL(fileURLWithPath: source).absoluteString
    }

    static func status(_ state: PlayerState) -> String {
        switch state {
        case .playing, .stalled, .suspended: "Playing"
        case .loading, .ready, .ended: "Paused"
        case .idle, .failed, .closed: "Stopped"
        }
    }

    static func microseconds(_ seconds: Double) -> Int64 {
        seconds.isFinite ? Int64((seconds * 1_000_000).rounded()) : 0
    }

    static func describe(_ value: Variant) -> String {
        let made = g_variant_ref_sink(value.make())
        defer { g_variant_unref(made) }
        return GString.take(g_variant_print(made, 1)) ?? ""
    }
}
