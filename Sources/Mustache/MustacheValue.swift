/// The data a template renders: a JSON-shaped value.
///
/// Build one from Swift literals (`["title": "Episode 1", "minutes": 42]`), from the output of
/// `JSONSerialization` with ``init(json:)``, or from any `Encodable` with ``init(encoding:encoder:)``.
///
/// In sections, `false`, `null`, an empty array and an empty string are falsy; everything else,
/// including the number 0, is truthy (so `{{#count}}{{count}} new{{/count}}` still shows "0 new").
public indirect enum MustacheValue: Sendable, Equatable {
    /// Text, HTML-escaped by `{{name}}` and inserted verbatim by `{{{name}}}` or `{{& name}}`.
    case string(String)
    /// A JSON number; integral values render without a fraction ("85", not "85.0").
    case number(Double)
    /// `true` or `false`; renders as that word when interpolated.
    case bool(Bool)
    /// A list: a section over it renders once per element, with the element on top of the context stack.
    case array([MustacheValue])
    /// A hash whose keys are the names tags look up.
    case object([String: MustacheValue])
    /// Nothing: falsy, and interpolates as the empty string.
    case null
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension MustacheValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension MustacheValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    /// Later duplicates of a key win, as in a JSON object.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension MustacheValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}
