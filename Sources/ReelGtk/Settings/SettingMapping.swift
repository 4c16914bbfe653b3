import CGtk

/// How a string key's text and a widget property's value translate into each other, for a
/// binding where the two differ: a combo row's index for a choice's id, a font chooser's
/// description for a family name, a colour button's RGBA for "#rrggbb".
/// Threading: main thread only (GSettings calls a binding's mappings where it was made).
public struct SettingMapping {
    /// A property value of one of the kinds the preferences bind.
    public enum Value: Sendable {
        case index(UInt32)
        case text(String)
        case color(GdkRGBA)
    }

    /// The property's value for the key's text; nil leaves the property as it is.
    public let toProperty: @MainActor (String) -> Value?
    /// The key's text for the property's value; nil leaves the key as it is.
    public let toKey: @MainActor (Value) -> String?

    public init(toProperty: @escaping @MainActor (String) -> Value?, toKey: @escaping @MainActor (Value) -> String?) {
        self.toProperty = toProperty
        self.toKey = toKey
    }
}

extension PlayerSettings {
    /// Binds a widget property to a string key both ways through `mapping` (as `bind` does
    /// without one), so a change from elsewhere (`gsettings set`) reaches the widget too.
    public func bind(_ key: SettingKey, to object: UnsafeMutableRawPointer, property: String, mapping: SettingMapping) {
        let box = Unmanaged.passRetained(MappingBox(mapping)).toOpaque()
        g_settings_bind_with_mapping(settings, key.rawValue, object.cast(to: GObject.self), property, G_SETTINGS_BIND_DEFAULT,
                                     MappingBox.read, MappingBox.write, box, MappingBox.release)
    }
}

/// A mapping handed to GLib, which releases it with the binding.
/// Threading: created on the main thread; GLib calls and releases it there.
private final class MappingBox: @unchecked Sendable {
    // Safe: GSettings calls a binding's mappings and destroy notify on the thread that bound it,
    // the main thread, and the mapping is never touched elsewhere.
    let mapping: SettingMapping
    init(_ mapping: SettingMapping) { self.mapping = mapping }

    static func from(_ data: UnsafeMutableRawPointer?) -> MappingBox {
        Unmanaged<MappingBox>.fromOpaque(data!).takeUnretainedValue()
    }

    static let release: GDestroyNotify = { data in
        guard let data else { return }
        Unmanaged<MappingBox>.fromOpaque(data).release()
    }

    /// Key to property: GSettings' get mapping.
    static let read: GSettingsBindGetMapping = { value, variant, data in
        guard let value, let variant, let text = g_variant_get_string(variant, nil).map({ String(cString: $0) })
        else { return 0 }
        let box = MappingBox.from(data)
        guard let mapped = MainActor.assumeIsolated({ box.mapping.toProperty(text) }) else { return 0 }
        switch mapped {
        case .index(let index): g_value_set_uint(value, index)
        case .text(let text): g_value_set_string(value, text)
        case .color(var color): g_value_set_boxed(value, &color)
        }
        return 1
    }

    /// Property to key: GSettings' set mapping; a new floating variant, or nil to refuse.
    static let write: GSettingsBindSetMapping = { value, _, data in
        guard let value else { return nil }
        let type = value.pointee.g_type
        let property: SettingMapping.Value
        if type == reel_type_uint() {
            property = .index(g_value_get_uint(value))
        } else if type == reel_type_string() {
            property = .text(g_value_get_string(value).map { String(cString: $0) } ?? "")
        } else if type == gdk_rgba_get_type(), let color = g_value_get_boxed(value) {
            property = .color(color.assumingMemoryBound(to: GdkRGBA.self).pointee)
        } else {
            return nil
        }
        let box = MappingBox.from(data)
        guard let text = MainActor.assumeIsolated({ box.mapping.toKey(property) }) else { return nil }
        return g_variant_new_string(text)
    }
}
