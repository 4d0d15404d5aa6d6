extension MustacheValue {
    /// Whether a section over this value renders (see the type's summary for the rules).
    var isTruthy: Bool {
        switch self {
        case .bool(let bool): return bool
        case .null: return false
        case .array(let elements): return !elements.isEmpty
        case .string(let string): return !string.isEmpty
        case .number, .object: return true
        }
    }

    /// The text an interpolation tag inserts, before any escaping.
    var text: String {
        switch self {
        case .string(let string): return string
        case .number(let number): return Self.format(number)
        case .bool(let bool): return bool ? "true" : "false"
        case .array(let elements): return elements.map(\.text).joined(separator: ",")
        case .object, .null: return ""
        }
    }

    /// Integral numbers print without a fraction; others in Swift's shortest round-tripping form ("1.21").
    static func format(_ number: Double) -> String {
        if number.isFinite, number.rounded() == number, abs(number) < 1e15 {
            return String(Int64(number))
        }
        return String(number)
    }

    /// The value of `key` if this is an object that has it; `nil` means "not found here, look further".
    @inline(__always)
    func member(_ key: String) -> MustacheValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}
