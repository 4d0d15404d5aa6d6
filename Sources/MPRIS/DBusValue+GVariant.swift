import CGio
import EarshotCore

/// DBusValue ↔ GVariant. Built values are floating references: GDBus takes them over (a reply, a
/// signal's body, a container's child), so nothing here unrefs what it made.
extension DBusValue {
    func makeVariant() -> OpaquePointer {
        switch self {
        case .string(let s): return g_variant_new_string(s)
        case .objectPath(let p): return g_variant_new_object_path(p)
        case .bool(let b): return g_variant_new_boolean(b ? 1 : 0)
        case .int64(let n): return g_variant_new_int64(n)
        case .uint32(let n): return g_variant_new_uint32(n)
        case .double(let d): return g_variant_new_double(d)
        case .strings(let list):
            return Self.array("s", list.map { g_variant_new_string($0) })
        case .dictionary(let entries):
            let children = entries.keys.sorted().map { key in
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(entries[key]!.makeVariant()))
            }
            return Self.array("{sv}", children)
        case .tuple(let items):
            let children: [OpaquePointer?] = items.map { $0.makeVariant() }
            return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, $0.count) }
        }
    }

    private static func array(_ childType: String, _ children: [OpaquePointer?]) -> OpaquePointer {
        childType.withCString { type in
            children.withUnsafeBufferPointer { g_variant_new_array(earshot_variant_type(type), $0.baseAddress, $0.count) }
        }
    }

    /// Reads a value GDBus handed us (not consumed). Types MPRIS never sends read as nil.
    static func read(_ variant: OpaquePointer) -> DBusValue? {
        let type = String(cString: g_variant_get_type_string(variant))
        switch type {
        case "s": return .string(String(cString: g_variant_get_string(variant, nil)))
        case "o": return .objectPath(String(cString: g_variant_get_string(variant, nil)))
        case "b": return .bool(g_variant_get_boolean(variant) != 0)
        case "x": return .int64(g_variant_get_int64(variant))
        case "u": return .uint32(g_variant_get_uint32(variant))
        case "d": return .double(g_variant_get_double(variant))
        case "v":
            guard let inner = g_variant_get_variant(variant) else { return nil }
            defer { g_variant_unref(inner) }
            return read(inner)
        default:
            guard type.hasPrefix("(") else { return nil }
            return .tuple(children(variant).map { $0 ?? .tuple([]) })
        }
    }

    /// The children of a tuple, each read (nil for a type MPRIS does not use).
    static func children(_ variant: OpaquePointer) -> [DBusValue?] {
        (0..<g_variant_n_children(variant)).map { index in
            guard let child = g_variant_get_child_value(variant, index) else { return nil }
            defer { g_variant_unref(child) }
            return read(child)
        }
    }
}
