import CGtk

/// GActions made in Swift and bound to widgets by `action-name` in the .ui files and to keys
/// by accelerators. Threading: main thread only.
@MainActor
public enum Actions {
    /// Adds a parameterless action named `name` to `group` (a window or the application).
    @discardableResult
    public static func add(_ group: UnsafeMutableRawPointer, _ name: String, _ handler: @escaping @MainActor () -> Void) -> OpaquePointer {
        let action = g_simple_action_new(name, nil)!
        Signal.connectAction(action.raw) { _ in handler() }
        return install(action, in: group)
    }

    /// Adds an action taking a string parameter (D-Bus and command-line callers use these).
    @discardableResult
    public static func addWithString(_ group: UnsafeMutableRawPointer, _ name: String,
                              _ handler: @escaping @MainActor (String) -> Void) -> OpaquePointer {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new(name, type)!
        Signal.connectAction(action.raw) { parameter in
            guard let parameter else { return }
            handler(String(cString: g_variant_get_string(parameter, nil)))
        }
        return install(action, in: group)
    }

    /// Adds an action with a number as parameter and state: menu items with that number as
    /// their target show as radio items, checked when the state matches. The handler asks for
    /// the change; the state follows only when `setState` says what really happened.
    @discardableResult
    public static func addNumberChoice(_ group: UnsafeMutableRawPointer, _ name: String, initial: Double,
                                _ handler: @escaping @MainActor (Double) -> Void) -> OpaquePointer {
        let type = g_variant_type_new("d")
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new_stateful(name, type, g_variant_new_double(initial))!
        Signal.connectAction(action.raw) { parameter in
            guard let parameter else { return }
            handler(g_variant_get_double(parameter))
        }
        return install(action, in: group)
    }

    /// Adds an action with a string parameter and state: menu items with a string target show
    /// as radio items, checked when the state matches. As `addNumberChoice`, the state follows
    /// only `setState`.
    @discardableResult
    public static func addStringChoice(_ group: UnsafeMutableRawPointer, _ name: String, initial: String,
                                       _ handler: @escaping @MainActor (String) -> Void) -> OpaquePointer {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new_stateful(name, type, g_variant_new_string(initial))!
        Signal.connectAction(action.raw) { parameter in
            guard let parameter else { return }
            handler(String(cString: g_variant_get_string(parameter, nil)))
        }
        return install(action, in: group)
    }

    /// Adds a parameterless action with a true/false state: menu items naming it show as check
    /// items. The handler is asked to toggle; the state follows only `setState`.
    @discardableResult
    public static func addToggle(_ group: UnsafeMutableRawPointer, _ name: String, initial: Bool,
                                 _ handler: @escaping @MainActor () -> Void) -> OpaquePointer {
        let action = g_simple_action_new_stateful(name, nil, g_variant_new_boolean(initial ? 1 : 0))!
        Signal.connectAction(action.raw) { _ in handler() }
        return install(action, in: group)
    }

    /// Puts `action` in `group`, which keeps it (the caller's reference goes).
    private static func install(_ action: OpaquePointer, in group: UnsafeMutableRawPointer) -> OpaquePointer {
        g_action_map_add_action(OpaquePointer(group), action)
        g_object_unref(action.raw.cast(to: GObject.self))
        return action
    }

    public static func setState(_ action: OpaquePointer, string: String) {
        g_simple_action_set_state(action, g_variant_new_string(string))
    }

    public static func setState(_ action: OpaquePointer, bool: Bool) {
        g_simple_action_set_state(action, g_variant_new_boolean(bool ? 1 : 0))
    }

    public static func setState(_ action: OpaquePointer, number: Double) {
        g_simple_action_set_state(action, g_variant_new_double(number))
    }

    public static func setEnabled(_ action: OpaquePointer, _ enabled: Bool) {
        g_simple_action_set_enabled(action, enabled ? 1 : 0)
    }
}
