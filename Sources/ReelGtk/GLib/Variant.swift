import CGtk

/// GVariant values built from Swift and read back, for D-Bus. `g_variant_new` and
/// `g_variant_get` are variadic and Swift cannot call them; the typed constructors can.
/// Threading: value types; the GVariants they make are immutable and thread-safe.
public indirect enum Variant {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case int64(Int64)
    case double(Double)
    case strings([String])
    /// `ao`: D-Bus object paths.
    case objectPaths([String])
    /// An array of values of one type, given by its type string (`a{sv}` for a list of maps),
    /// so that an empty one still has its type.
    case array(of: String, [Variant])
    /// `a{sv}`: the shape of D-Bus property maps and MPRIS metadata.
    case dictionary([String: Variant])
    case tuple([Variant])

    /// A new floating GVariant (the call it is passed to takes it).
    public func make() -> OpaquePointer {
        switch self {
        case .string(let s): return g_variant_new_string(s)
        case .objectPath(let p): return g_variant_new_object_path(p)
        case .bool(let b): return g_variant_new_boolean(b ? 1 : 0)
        case .int64(let n): return g_variant_new_int64(gint64(n))
        case .double(let d): return g_variant_new_double(d)
        case .strings(let list):
            var pointers = list.map { UnsafePointer(strdup($0)) } + [nil]
            defer { pointers.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
            return g_variant_new_strv(&pointers, gssize(list.count))
        case .objectPaths(let list):
            var pointers = list.map { UnsafePointer(strdup($0)) } + [nil]
            defer { pointers.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
            return g_variant_new_objv(&pointers, gssize(list.count))
        case .array(let element, let items):
            let type = g_variant_type_new(element)
            defer { g_variant_type_free(type) }
            var children: [OpaquePointer?] = items.map { $0.make() }
            return g_variant_new_array(type, &children, gsize(children.count))
        case .dictionary(let entries):
            let type = g_variant_type_new("{sv}")
            defer { g_variant_type_free(type) }
            var children: [OpaquePointer?] = entries.sorted { $0.key < $1.key }.map { key, value in
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value.make()))
            }
            return g_variant_new_array(type, &children, gsize(children.count))
        case .tuple(let items):
            var children: [OpaquePointer?] = items.map { $0.make() }
            return g_variant_new_tuple(&children, gsize(children.count))
        }
    }
}

/// Reads a GVariant (method parameters, a property being set), holding a reference to it.
/// Threading: over an immutable GVariant; used where it was made.
public final class VariantReader {
    public let value: OpaquePointer

    /// Takes a new reference to `value` (which the caller keeps its own reference to).
    public init(_ value: OpaquePointer) {
        self.value = g_variant_ref_sink(value)
    }

    private init(owning value: OpaquePointer) { self.value = value }

    deinit { g_variant_unref(value) }

    public var typeString: String { String(cString: g_variant_get_type_string(value)) }

    /// How many children a tuple or container has (0 for a plain value).
    public var count: Int { g_variant_is_container(value) != 0 ? Int(g_variant_n_children(value)) : 0 }

    /// Child `index` of a tuple or container; nil when there is none.
    public func child(_ index: Int) -> VariantReader? {
        guard g_variant_is_container(value) != 0, index < Int(g_variant_n_children(value)),
              let child = g_variant_get_child_value(value, gsize(index)) else { return nil }
        return VariantReader(owning: child)
    }

    /// A `v` unwrapped to what it holds (properties arrive that way in Set).
    public var unboxed: VariantReader {
        guard typeString == "v", let inner = g_variant_get_variant(value) else { return self }
        return VariantReader(owning: inner)
    }

    public var string: String? {
        let t = typeString
        guard t == "s" || t == "o" else { return nil }
        return String(cString: g_variant_get_string(value, nil))
    }
    public var int64: Int64? { typeString == "x" ? Int64(g_variant_get_int64(value)) : nil }
    public var double: Double? { typeString == "d" ? g_variant_get_double(value) : nil }
    public var bool: Bool? { typeString == "b" ? g_variant_get_boolean(value) != 0 : nil }
}
