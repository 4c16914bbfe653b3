import CGtk
import Foundation
import ReelEngine

/// Reel's preferences, in GSettings (schema `io.github.reel.Reel` in data/) as GNOME apps keep
/// them. Works installed (the schema in the system or user schema directory) and uninstalled
/// (`swift run`: the schema is compiled from data/ into the user's cache). Where GSettings has
/// no persistent backend (no dconf), values go to a keyfile in ~/.config/reel instead of memory.
/// Every change is announced through `changed`, so it applies at once.
/// Threading: main thread only.
@MainActor
public final class PlayerSettings {
    public static let schemaID = "io.github.reel.Reel"
    public let settings: UnsafeMutablePointer<GSettings>
    private var observers: [@MainActor (SettingKey) -> Void] = []

    /// Stops the program when the schema cannot be found; `load()` lets the caller say so instead.
    public convenience init() {
        guard let settings = Self.makeSettings() else {
            fatalError("Reel cannot find its settings schema \(Self.schemaID): install Reel, or keep data/ beside the sources")
        }
        self.init(settings)
    }

    /// The settings, or nil when Reel's schema is neither installed nor beside the sources.
    public static func load() -> PlayerSettings? { makeSettings().map(PlayerSettings.init) }

    private init(_ settings: UnsafeMutablePointer<GSettings>) {
        self.settings = settings
        Signal.connectSettingChanged(settings.raw) { [weak self] name in
            // Keys of another Reel's schema (a newer one sharing the settings) are not ours.
            guard let key = SettingKey(rawValue: name) else { return }
            self?.observers.forEach { $0(key) }
        }
    }

    /// Calls `observer` with the key of every change (from the preferences window, `gsettings`…).
    public func observe(_ observer: @escaping @MainActor (SettingKey) -> Void) { observers.append(observer) }

    public func bool(_ key: SettingKey) -> Bool { g_settings_get_boolean(settings, key.rawValue) != 0 }
    public func double(_ key: SettingKey) -> Double { g_settings_get_double(settings, key.rawValue) }
    public func string(_ key: SettingKey) -> String { GString.take(g_settings_get_string(settings, key.rawValue)) ?? "" }
    public func set(_ key: SettingKey, _ value: Bool) { g_settings_set_boolean(settings, key.rawValue, value ? 1 : 0) }
    public func set(_ key: SettingKey, _ value: Double) { g_settings_set_double(settings, key.rawValue, value) }
    public func set(_ key: SettingKey, _ value: String) { g_settings_set_string(settings, key.rawValue, value) }

    /// Binds a widget property to a key both ways (the preferences window).
    public func bind(_ key: SettingKey, to object: UnsafeMutableRawPointer, property: String) {
        g_settings_bind(settings, key.rawValue, object.cast(to: GObject.self), property, G_SETTINGS_BIND_DEFAULT)
    }

    // MARK: Typed views

    public var autoplay: Bool { bool(.autoplay) }
    public var showRemaining: Bool {
        get { bool(.showRemaining) }
        set { set(.showRemaining, newValue) }
    }
    public var controlsDisplayDuration: Double { double(.controlsDisplayDuration) }
    public var messageDisplayDuration: Double { double(.messageDisplayDuration) }
    public var displayControlsOnTap: Bool { bool(.displayControlsOnTap) }
    public var dontHideControls: Bool { bool(.dontHideControls) }
    public var hideControlsWhilePaused: Bool { bool(.hideControlsWhilePaused) }
    public var timeRefreshInterval: Double { double(.timeRefreshInterval) }
    public var timeOptions: TimeTextOptions {
        TimeTextOptions(alwaysShowHours: bool(.alwaysShowHours), showFrames: bool(.showFrames),
                        remainingMinusSign: bool(.remainingMinusSign))
    }
    public var volume: Double {
        get { double(.volume) }
        set { set(.volume, newValue) }
    }
    /// The stream cache as the preferences set it (caching on or off, the size limit).
    public var streamCache: StreamCacheOptions {
        var options = StreamCacheOptions()
        options.enabled = bool(.streamCache)
        options.sizeLimit = Int64(double(.streamCacheLimit) * 1_000_000_000)
        return options
    }
    public var rememberQueue: Bool { bool(.rememberQueue) }
    public var backgroundPlayback: Bool { bool(.backgroundPlayback) }
    /// How pictures are to be drawn (the choice takes effect at the next start).
    public var videoOutput: VideoOutput.Choice {
        VideoOutput.Choice(rawValue: string(.videoOutput)) ?? .automatic
    }
    /// What opening media with a remembered position does.
    public var resumePlayback: ResumeMode {
        ResumeMode(rawValue: string(.resumePlayback)) ?? .resume
    }
    public var muted: Bool {
        get { bool(.muted) }
        set { set(.muted, newValue) }
    }

    // MARK: Finding the schema

    private static func makeSettings() -> UnsafeMutablePointer<GSettings>? {
        let backend = persistentBackend()
        guard let schema = installedSchema() ?? compiledFromSource() else { return nil }
        defer { g_settings_schema_unref(schema) }
        return g_settings_new_full(schema, backend, nil)
    }

    private static func installedSchema() -> OpaquePointer? {
        if let source = g_settings_schema_source_get_default(),
           let schema = g_settings_schema_source_lookup(source, schemaID, 1) {
            return schema
        }
        // Installed under a prefix the session does not search (`--prefix /opt/reel`): the
        // schemas compiled beside the data directory, `$prefix/share/glib-2.0/schemas`.
        let beside = URL(fileURLWithPath: DataDirectory.path).deletingLastPathComponent()
            .appendingPathComponent("glib-2.0/schemas").path
        guard FileManager.default.fileExists(atPath: beside + "/gschemas.compiled") else { return nil }
        var error: UnsafeMutablePointer<GError>? = nil
        guard let source = g_settings_schema_source_new_from_directory(beside, g_settings_schema_source_get_default(), 0, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { g_settings_schema_source_unref(source) }
        return g_settings_schema_source_lookup(source, schemaID, 0)
    }

    /// Compiles data/<id>.gschema.xml into ~/.cache/reel/schemas (when it changed) and loads it.
    private static func compiledFromSource() -> OpaquePointer? {
        let xml = DataDirectory.file("\(schemaID).gschema.xml")
        guard FileManager.default.fileExists(atPath: xml) else { return nil }
        let cache = (ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? NSHomeDirectory() + "/.cache") + "/reel/schemas"
        try? FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let copy = cache + "/\(schemaID).gschema.xml"
        let source = FileManager.default.contents(atPath: xml)
        if FileManager.default.contents(atPath: copy) != source || !FileManager.default.fileExists(atPath: cache + "/gschemas.compiled") {
            _ = FileManager.default.createFile(atPath: copy, contents: source)
            var error: UnsafeMutablePointer<GError>? = nil
            let command = "glib-compile-schemas \(cache)"
            var status: gint = 0
            if g_spawn_command_line_sync(command, nil, nil, &status, &error) == 0 || status != 0 {
                if let error { g_error_free(error) }
                return nil
            }
        }
        var error: UnsafeMutablePointer<GError>? = nil
        guard let source = g_settings_schema_source_new_from_directory(cache, g_settings_schema_source_get_default(), 0, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { g_settings_schema_source_unref(source) }
        return g_settings_schema_source_lookup(source, schemaID, 0)
    }

    /// GSettings' default backend, unless it would only keep values in memory.
    private static func persistentBackend() -> UnsafeMutablePointer<GSettingsBackend>? {
        guard let fallback = g_settings_backend_get_default() else { return nil }
        defer { g_object_unref(fallback.raw.cast(to: GObject.self)) }
        guard reel_settings_backend_is_memory(fallback) != 0 else { return nil }
        let config = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? NSHomeDirectory() + "/.config"
        try? FileManager.default.createDirectory(atPath: config + "/reel", withIntermediateDirectories: true)
        return g_keyfile_settings_backend_new(config + "/reel/settings.ini", "/io/github/reel/Reel/", "Reel")
    }
}
