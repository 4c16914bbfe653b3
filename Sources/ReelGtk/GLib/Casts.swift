import CGtk

/// GObject pointers cross between GTK's typed pointers and raw pointers all the time (the C
/// type-check casts are macros Swift cannot see). These helpers keep the casts short.
/// Threading: pure pointer arithmetic.
extension UnsafeMutablePointer {
    /// The same object seen as another GObject type.
    @inline(__always) public func cast<T>(to type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: T.self)
    }

    @inline(__always) public var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }

    /// The same object for APIs whose type GTK keeps opaque (final types).
    @inline(__always) public func cast() -> OpaquePointer { OpaquePointer(self) }
}

extension OpaquePointer {
    @inline(__always) public func cast<T>(to type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: T.self)
    }

    /// Opaque to opaque (a gesture passed as an event controller).
    @inline(__always) public func cast() -> OpaquePointer { self }

    @inline(__always) public var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension UnsafeMutableRawPointer {
    @inline(__always) public func cast<T>(to type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        assumingMemoryBound(to: T.self)
    }

    @inline(__always) public func cast() -> OpaquePointer { OpaquePointer(self) }
}

/// Swift strings to GLib and back.
public enum GString {
    /// Takes ownership of a newly allocated C string (g_free).
    public static func take(_ text: UnsafeMutablePointer<CChar>?) -> String? {
        guard let text else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    public static func borrow(_ text: UnsafePointer<CChar>?) -> String? {
        text.map { String(cString: $0) }
    }
}
