import Foundation

extension MustacheValue {
    /// Converts the output of `JSONSerialization.jsonObject(with:options:)` (or an equivalent tree of
    /// `String`, `Bool`, numbers, `NSNull`, arrays and `[String: Any]`) into a value.
    ///
    /// Anything else (dates, data, custom classes) becomes `.null`: a template cannot show it anyway.
    public init(json: Any) {
        switch json {
        case let value as MustacheValue:
            self = value
        case let string as String:
            self = .string(string)
        case let bool as Bool where Self.isBoolean(json):
            self = .bool(bool)
        case let number as NSNumber:
            self = .number(number.doubleValue)
        case let array as [Any]:
            self = .array(array.map(MustacheValue.init(json:)))
        case let object as [String: Any]:
            self = .object(object.mapValues(MustacheValue.init(json:)))
        default:
            self = .null
        }
    }

    /// Encodes `value` to JSON and converts the result, so any `Encodable` model can be a context.
    ///
    /// Keys follow the encoder's strategies; dates follow its date strategy (numbers by default).
    public init<T: Encodable>(encoding value: T, encoder: JSONEncoder = JSONEncoder()) throws {
        let data = try encoder.encode(value)
        self.init(json: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }

    /// Whether `json` is a boolean rather than a number that merely bridges to `Bool`.
    ///
    /// Foundation hands JSON booleans back as `NSNumber`s whose `objCType` is `c` (char), and
    /// `NSNumber(1) as? Bool` succeeds, so the type check alone would turn every 0 and 1 into a Bool.
    private static func isBoolean(_ json: Any) -> Bool {
        if type(of: json) == Bool.self { return true }
        guard let number = json as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }
}
