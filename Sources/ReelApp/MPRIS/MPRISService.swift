import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// What the MPRIS remote reaches in the app besides the player: the queue, the window.
/// Threading: main thread only.
@MainActor
protocol MediaPlayerHost: AnyObject {
    /// The path or URL playing (nil when nothing is open).
    var currentSource: MediaSource? { get }
    var canGoNext: Bool { get }
    var canGoPrevious: Bool { get }
    func next()
    func previous()
    var loopMode: LoopMode { get set }
    var shuffle: Bool { get set }
    /// Stop: playing ends and the position goes back to the start (MPRIS's Stop).
    func stop()
    /// Stopped by `stop()` and not played since.
    var isStopped: Bool { get }
    func raise()
    func quit()
    func open(uri: String)
}

/// The desktop's media remote (media keys, the lock screen, GNOME's and KDE's media
/// controls, `playerctl`): `org.mpris.MediaPlayer2` and `.Player` on the session bus at
/// /org/mpris/MediaPlayer2, under the name org.mpris.MediaPlayer2.reel.
/// Threading: main thread only.
@MainActor
final class MPRISService {
    static let path = "/org/mpris/MediaPlayer2"
    static let root = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    private weak var host: MediaPlayerHost?
    /// The player the remote reads and steers (position, volume, speed, what is open).
    private let player: PlaybackController
    private var object: DBusObject?
    private var nameID: guint = 0
    /// What was last announced, so a change is sent once and unchanged values not at all.
    private var announced: [String: String] = [:]
    private var trackNumber = 0

    /// Exports the object on `connection` and asks for the well-known name. `instance` is
    /// appended to the name when several Reels may run (measured runs are not unique).
    init(host: MediaPlayerHost, player: PlaybackController, connection: OpaquePointer, instance: String? = nil) throws {
        self.host = host
        self.player = player
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

    /// Announces what an engine event changed; seeks are signalled (`Seeked`).
    func handle(_ event: PlayerEvent) {
        switch event {
        case .mediaLoaded:
            trackNumber += 1
            refresh()
        case .seekCompleted(let position):
            object?.emit(Self.playerInterface, "Seeked", .tuple([.int64(Self.microseconds(position))]))
        case .stateChanged, .volumeChanged, .speedChanged, .durationKnown:
            refresh()
        default:
            break
        }
    }

    /// Sends PropertiesChanged for whatever differs from what listeners last heard.
    func refresh() {
        guard let object else { return }
        var changed: [String: Variant] = [:]
        for name in ["PlaybackStatus", "Metadata", "Volume", "Rate", "LoopStatus", "Shuffle",
                     "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek"] {
            guard let value = playerProperty(name) else { continue }
            let key = Self.describe(value)
            if announced[name] != key {
                announced[name] = key
                changed[name] = value
            }
        }
        object.propertiesChanged(Self.playerInterface, changed)
    }

    // MARK: Methods

    private func call(_ interface: String, _ method: String, _ parameters: VariantReader) -> DBusObject.Reply {
        guard let host else { return .value(nil) }
        switch (interface, method) {
        case (Self.root, "Raise"): host.raise()
        case (Self.root, "Quit"): host.quit()
        case (Self.playerInterface, "Play"):
            if player.state.hasMedia { player.play() }
        case (Self.playerInterface, "Pause"): player.pause()
        case (Self.playerInterface, "PlayPause"):
            if player.state == .playing || player.state == .stalled { player.pause() } else if player.state.hasMedia { player.play() }
        case (Self.playerInterface, "Stop"): host.stop()
        case (Self.playerInterface, "Next"): host.next()
        case (Self.playerInterface, "Previous"): host.previous()
        case (Self.playerInterface, "Seek"):
            guard let offset = parameters.child(0)?.int64 else { return Self.invalid("Seek takes an offset in µs") }
            guard player.state.hasMedia else { break }
            let target = player.position + Double(offset) / 1_000_000
            // Past the end is the next track, as the specification says; before the start is 0.
            if let duration = player.duration, target >= duration {
                if host.canGoNext { host.next() }
            } else {
                player.seek(to: max(0, target), mode: .exact)
            }
        case (Self.playerInterface, "SetPosition"):
            guard let track = parameters.child(0)?.string, let position = parameters.child(1)?.int64 else {
                return Self.invalid("SetPosition takes a track id and a position in µs")
            }
            // A stale track id (the track changed meanwhile) is ignored, as specified.
            guard track == trackID, player.state.hasMedia else { break }
            let seconds = Double(position) / 1_000_000
            guard seconds >= 0, seconds <= (player.duration ?? .infinity) else { break }
            player.seek(to: seconds, mode: .exact)
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
        interface == Self.root ? rootProperty(name) : playerProperty(name)
    }

    private func rootProperty(_ name: String) -> Variant? {
        switch name {
        case "CanQuit", "CanRaise", "CanSetFullscreen": return .bool(name != "CanSetFullscreen")
        case "Fullscreen": return .bool(false)
        case "HasTrackList": return .bool(false)
        case "Identity": return .string("Reel")
        case "DesktopEntry": return .string(ReelApplication.id)
        case "SupportedUriSchemes": return .strings(["file", "http", "https"])
        case "SupportedMimeTypes": return .strings(MPRISIntrospection.mimeTypes)
        default: return nil
        }
    }

    private func playerProperty(_ name: String) -> Variant? {
        guard let host else { return nil }
        let hasMedia = player.state.hasMedia
        switch name {
        case "PlaybackStatus": return .string(host.isStopped && player.state != .playing ? "Stopped" : Self.status(player.state))
        case "LoopStatus": return .string(host.loopMode.mprisName)
        case "Rate": return .double(player.speed)
        case "Shuffle": return .bool(host.shuffle)
        case "Metadata": return .dictionary(metadata())
        case "Volume": return .double(player.isMuted ? 0 : player.volume)
        case "Position": return .int64(hasMedia ? Self.microseconds(player.position) : 0)
        case "MinimumRate": return .double(speedRange.lowerBound)
        case "MaximumRate": return .double(speedRange.upperBound)
        case "CanGoNext": return .bool(host.canGoNext)
        case "CanGoPrevious": return .bool(host.canGoPrevious)
        case "CanPlay", "CanPause": return .bool(hasMedia)
        case "CanSeek": return .bool(hasMedia && (player.mediaInfo?.isSeekable ?? false))
        case "CanControl": return .bool(true)
        default: return nil
        }
    }

    private func set(_ interface: String, _ name: String, _ value: VariantReader) -> Bool {
        guard interface == Self.playerInterface, let host else { return false }
        let value = value.unboxed
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

    /// The track id changes with every item opened, so a SetPosition meant for the previous
    /// one is recognised.
    private var trackID: String { "/io/github/reel/Reel/track/\(trackNumber)" }

    private func metadata() -> [String: Variant] {
        guard let host, let info = player.mediaInfo else { return [:] }
        var entries: [String: Variant] = ["mpris:trackid": .objectPath(trackID), "xesam:title": .string(info.displayTitle)]
        if let duration = player.duration ?? info.duration { entries["mpris:length"] = .int64(Self.microseconds(duration)) }
        if let source = host.currentSource { entries["xesam:url"] = .string(Self.uri(source.description)) }
        if let artist = info.metadata["artist"] ?? info.metadata["ARTIST"] { entries["xesam:artist"] = .strings([artist]) }
        if let album = info.metadata["album"] ?? info.metadata["ALBUM"] { entries["xesam:album"] = .string(album) }
        return entries
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

    private static func describe(_ value: Variant) -> String {
        let made = g_variant_ref_sink(value.make())
        defer { g_variant_unref(made) }
        return GString.take(g_variant_print(made, 1)) ?? ""
    }
}
