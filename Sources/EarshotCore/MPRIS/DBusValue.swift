/// A D-Bus value as MPRIS uses them: what the bus wrapper (Sources/MPRIS/DBusValue+GVariant.swift)
/// turns into GVariants and reads back. Pure, so the MPRIS model is tested without a bus.
public indirect enum DBusValue: Sendable, Equatable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case int64(Int64)
    case uint32(UInt32)
    case double(Double)
    /// `as`
    case strings([String])
    /// `a{sv}`: every value wrapped in a variant (Metadata, PropertiesChanged).
    case dictionary([String: DBusValue])
    /// A method's arguments or reply, or a signal's body.
    case tuple([DBusValue])

    /// The D-Bus type signature.
    public var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .bool: "b"
        case .int64: "x"
        case .uint32: "u"
        case .double: "d"
        case .strings: "as"
        case .dictionary: "a{sv}"
        case .tuple(let items): "(" + items.map(\.signature).joined() + ")"
        }
    }

    public var string: String? {
        switch self {
        case .string(let s), .objectPath(let s): s
        default: nil
        }
    }

    public var int64: Int64? {
        switch self {
        case .int64(let n): n
        case .uint32(let n): Int64(n)
        default: nil
        }
    }

    public var double: Double? {
        switch self {
        case .double(let d): d
        case .int64(let n): Double(n)
        default: nil
        }
    }

    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
}
