import CGtk
import Foundation

/// One object exported on a D-Bus connection through GIO's GDBus: its interfaces come from
/// introspection XML, and method calls, property reads and writes go to Swift handlers.
/// GDBus calls the handlers in the main context the object was registered from.
/// Threading: main thread only (registered there, so GDBus calls back there).
@MainActor
public final class DBusObject {
    /// A method's answer: a tuple of out-arguments (nil: none), or a D-Bus error.
    public enum Reply {
        case value(Variant?)
        case error(name: String, message: String)
    }

    /// What the object does. Threading: called on the main thread.
    public struct Handlers {
        public var method: @MainActor (_ interface: String, _ method: String, _ parameters: VariantReader) -> Reply
        public var get: @MainActor (_ interface: String, _ property: String) -> Variant?
        public var set: @MainActor (_ interface: String, _ property: String, _ value: VariantReader) -> Bool

        public init(method: @escaping @MainActor (_ interface: String, _ method: String, _ parameters: VariantReader) -> Reply,
                    get: @escaping @MainActor (_ interface: String, _ property: String) -> Variant?,
                    set: @escaping @MainActor (_ interface: String, _ property: String, _ value: VariantReader) -> Bool) {
            self.method = method
            self.get = get
            self.set = set
        }
    }

    public let connection: OpaquePointer
    public let path: String
    private var registrations: [guint] = []
    private let box: Unmanaged<Box>

    /// Holds the handlers for GDBus's user data. Threading: main thread only.
    private final class Box: @unchecked Sendable {
        // Safe: GDBus calls back on the main context the object was registered from.
        let handlers: Handlers
        init(_ handlers: Handlers) { self.handlers = handlers }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(connection: OpaquePointer, path: String, introspection xml: String, handlers: Handlers) throws {
        self.connection = connection
        self.path = path
        box = Unmanaged.passRetained(Box(handlers))
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(xml, &error) else {
            defer { g_error_free(error) }
            box.release()
            throw Failure(description: "bad introspection XML: \(String(cString: error!.pointee.message))")
        }
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = Self.methodCall
        vtable.get_property = Self.getProperty
        vtable.set_property = Self.setProperty
        var index = 0
        while let interface = node.pointee.interfaces?[index] {
            index += 1
            let id = g_dbus_connection_register_object(connection, path, interface, &vtable,
                                                       box.toOpaque(), nil, &error)
            guard id != 0 else {
                let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
                g_error_free(error)
                unregister()
                box.release()
                throw Failure(description: "cannot export \(path): \(message)")
            }
            registrations.append(id)
        }
    }

    /// Takes the object off the bus (its handlers are not called after this).
    public func unregister() {
        for id in registrations { g_dbus_connection_unregister_object(connection, id) }
        registrations.removeAll()
    }

    isolated deinit {
        unregister()
        box.release()
    }

    /// Emits `signal` of `interface` from this object to everyone listening.
    public func emit(_ interface: String, _ signal: String, _ parameters: Variant?) {
        g_dbus_connection_emit_signal(connection, nil, path, interface, signal, parameters?.make(), nil)
    }

    /// org.freedesktop.DBus.Properties.PropertiesChanged with the new values, and the names of
    /// properties that changed without their values (listeners read them again if they care:
    /// for values too big to send at every change).
    public func propertiesChanged(_ interface: String, _ changed: [String: Variant], invalidated: [String] = []) {
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        emit("org.freedesktop.DBus.Properties", "PropertiesChanged",
             .tuple([.string(interface), .dictionary(changed), .strings(invalidated)]))
    }

    // MARK: GDBus callbacks
    //
    // GDBus calls these on the main thread (the object was registered there). Pointers are not
    // Sendable, so they cross into the main actor as addresses and are rebuilt there.

    private static func handlers(_ address: Int) -> Handlers {
        Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue().handlers
    }

    private static let methodCall: GDBusInterfaceMethodCallFunc = { _, _, _, interface, method, parameters, invocation, data in
        let iface = String(cString: interface!), name = String(cString: method!)
        let params = Int(bitPattern: parameters), call = Int(bitPattern: invocation), box = Int(bitPattern: data)
        MainActor.assumeIsolated {
            let invocation = OpaquePointer(bitPattern: call)
            let reply = handlers(box).method(iface, name, VariantReader(OpaquePointer(bitPattern: params)!))
            switch reply {
            case .value(let value):
                g_dbus_method_invocation_return_value(invocation, value?.make())
            case .error(let errorName, let message):
                g_dbus_method_invocation_return_dbus_error(invocation, errorName, message)
            }
        }
    }

    private static let getProperty: GDBusInterfaceGetPropertyFunc = { _, _, _, interface, property, error, data in
        let iface = String(cString: interface!), name = String(cString: property!), box = Int(bitPattern: data)
        let made: Int = MainActor.assumeIsolated {
            guard let value = handlers(box).get(iface, name) else { return 0 }
            return Int(bitPattern: value.make())
        }
        if made == 0 {
            g_set_error_literal(error, g_dbus_error_quark(), gint(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "no property \(name)")
        }
        return OpaquePointer(bitPattern: made)
    }

    private static let setProperty: GDBusInterfaceSetPropertyFunc = { _, _, _, interface, property, value, error, data in
        let iface = String(cString: interface!), name = String(cString: property!)
        let newValue = Int(bitPattern: value), box = Int(bitPattern: data)
        let done: Bool = MainActor.assumeIsolated {
            handlers(box).set(iface, name, VariantReader(OpaquePointer(bitPattern: newValue)!))
        }
        if done { return 1 }
        g_set_error_literal(error, g_dbus_error_quark(), gint(G_DBUS_ERROR_PROPERTY_READ_ONLY.rawValue),
                            "\(name) cannot be set to that")
        return 0
    }
}
