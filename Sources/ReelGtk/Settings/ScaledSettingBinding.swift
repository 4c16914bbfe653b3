import CGtk

extension PlayerSettings {
    /// Binds a number property to a number key both ways, the property showing the key's value
    /// times `scale`: a fraction kept in the key shown in percent (`scale` 100).
    public func bind(_ key: SettingKey, to object: UnsafeMutableRawPointer, property: String, scale: Double) {
        let box = Unmanaged.passRetained(ScaleBox(scale)).toOpaque()
        g_settings_bind_with_mapping(settings, key.rawValue, object.cast(to: GObject.self), property, G_SETTINGS_BIND_DEFAULT,
                                     ScaleBox.read, ScaleBox.write, box, ScaleBox.release)
    }
}

/// The scale handed to GLib, which releases it with the binding.
/// Threading: immutable; GLib calls the mappings on the thread that bound them.
private final class ScaleBox: Sendable {
    let scale: Double
    init(_ scale: Double) { self.scale = scale }

    static func from(_ data: UnsafeMutableRawPointer?) -> ScaleBox {
        Unmanaged<ScaleBox>.fromOpaque(data!).takeUnretainedValue()
    }

    static let release: GDestroyNotify = { data in
        guard let data else { return }
        Unmanaged<ScaleBox>.fromOpaque(data).release()
    }

    /// Key to property.
    static let read: GSettingsBindGetMapping = { value, variant, data in
        guard let value, let variant else { return 0 }
        g_value_set_double(value, g_variant_get_double(variant) * ScaleBox.from(data).scale)
        return 1
    }

    /// Property to key: a new floating variant.
    static let write: GSettingsBindSetMapping = { value, _, data in
        guard let value else { return nil }
        return g_variant_new_double(g_value_get_double(value) / ScaleBox.from(data).scale)
    }
}
