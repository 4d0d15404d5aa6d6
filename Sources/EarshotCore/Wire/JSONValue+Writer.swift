import FoundationEssentials

extension JSONValue {
    /// The value as JSON text in UTF-8, written in one pass straight into a byte buffer: linear in
    /// the output (JSONEncoder, pretty and with sorted keys, took 11.8 s over a 60,000-episode
    /// feed's document; this takes a small fraction of its parse).
    ///
    /// - `pretty`: two-space indents and `"key" : value`, as JSONEncoder's `.prettyPrinted`.
    /// - `sortedKeys`: object keys in byte order of their UTF-8 (JSONEncoder's `.sortedKeys` order
    ///   for the ASCII keys Earshot writes).
    /// Slashes are not escaped; numbers that are whole (and below 9e15) are written without a
    /// fraction, as `encode(to:)` does; a number that is not finite is `null`.
    public func jsonBytes(pretty: Bool = false, sortedKeys: Bool = false) -> [UInt8] {
        var writer = JSONTextWriter(pretty: pretty, sortedKeys: sortedKeys)
        writer.reserve(4096)
        writer.write(self, depth: 0)
        return writer.bytes
    }
}

/// The writer behind `JSONValue.jsonBytes`; also writes single strings for callers that build
/// JSON themselves.
public struct JSONTextWriter {
    public private(set) var bytes: [UInt8] = []
    let pretty: Bool
    let sortedKeys: Bool

    public init(pretty: Bool = false, sortedKeys: Bool = false) {
        self.pretty = pretty
        self.sortedKeys = sortedKeys
    }

    public mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

    /// Hands over what was written so far and starts empty (for writing a long document in parts).
    public mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// An object written member by member, for documents too big to hold as one `JSONValue`:
    /// `member(key, writer)` writes the value of each of `keys` (in the order given) at `depth + 1`.
    public mutating func writeObject(keys: [String], depth: Int, member: (String, inout JSONTextWriter) -> Void) {
        if keys.isEmpty { append("{}"); return }
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            newline(depth + 1)
            writeString(key)
            append(pretty ? " : " : ":")
            member(key, &self)
        }
        newline(depth)
        bytes.append(UInt8(ascii: "}"))
    }

    /// An array written element by element: `element(item, writer)` writes each at `depth + 1`;
    /// false leaves that item out.
    public mutating func writeArray<Items: Sequence>(_ items: Items, depth: Int,
                                                     element: (Items.Element, inout JSONTextWriter) -> Bool) {
        bytes.append(UInt8(ascii: "["))
        var written = 0
        for item in items {
            let mark = bytes.count
            if written > 0 { bytes.append(UInt8(ascii: ",")) }
            newline(depth + 1)
            if element(item, &self) {
                written += 1
            } else {
                bytes.removeSubrange(mark...)
            }
        }
        if written == 0 {
            append("]")
            return
        }
        newline(depth)
        bytes.append(UInt8(ascii: "]"))
    }

    /// `[`: an array whose elements follow (`elementStart` before each), closed by `closeArray`.
    public mutating func openArray() {
        bytes.append(UInt8(ascii: "["))
    }

    /// What goes before an element of an array at `depth - 1`: `,` unless it is the `first`, and the
    /// line break and indent of `depth` (pretty).
    public mutating func elementStart(depth: Int, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        newline(depth)
    }

    /// `]` of an array at `depth` opened by `openArray` (`[]` when `empty`).
    public mutating func closeArray(depth: Int, empty: Bool) {
        if !empty { newline(depth) }
        bytes.append(UInt8(ascii: "]"))
    }

    /// `{`: an object whose members follow (`key` before each value), closed by `closeObject`.
    public mutating func openObject() {
        bytes.append(UInt8(ascii: "{"))
    }

    /// A member's key of an object at `depth - 1`, after the separator unless it is the `first`:
    /// `"key" : ` (pretty). Keys are written as they are: plain ASCII names, which need no escaping.
    public mutating func key(_ key: StaticString, depth: Int, first: inout Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        newline(depth)
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        append(pretty ? "\" : " : "\":")
    }

    /// `}` of an object at `depth` opened by `openObject` (`{}` when it got no member).
    public mutating func closeObject(depth: Int, empty: Bool) {
        if !empty { newline(depth) }
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func writeBool(_ flag: Bool) { append(flag ? "true" : "false") }
    public mutating func writeNull() { append("null") }

    /// One value at `depth` (the nesting its first line is indented for).
    public mutating func write(_ value: JSONValue, depth: Int) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): writeNumber(number)
        case .string(let text): writeString(text)
        case .array(let items):
            if items.isEmpty { append("[]"); return }
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                write(item, depth: depth + 1)
            }
            newline(depth)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { append("{}"); return }
            bytes.append(UInt8(ascii: "{"))
            var first = true
            func member(_ key: String, _ value: JSONValue) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                newline(depth + 1)
                writeString(key)
                append(pretty ? " : " : ":")
                write(value, depth: depth + 1)
            }
            if sortedKeys {
                // The pairs sorted, not the keys (each looked up again: a hash per member).
                for (key, value) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                    member(key, value)
                }
            } else {
                for (key, value) in members { member(key, value) }
            }
            newline(depth)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func newline(_ depth: Int) {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        // Whole runs of spaces, not one append a space: a 60,000-episode document has 6 million lines.
        var left = depth * 2
        Self.spaces.withUTF8Buffer { spaces in
            while left > 0 {
                let run = min(left, spaces.count)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: spaces[0..<run]))
                left -= run
            }
        }
    }

    private static let spaces: StaticString = "                                "

    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A number as `write(.number(_:))` writes it.
    public mutating func writeNumber(_ number: Double) {
        guard number.isFinite else { append("null"); return }
        if number == number.rounded(), abs(number) < 9e15 {
            // The digits straight into the text: no String made for each of a document's numbers.
            var value = Int64(number)
            if value < 0 {
                bytes.append(UInt8(ascii: "-"))
                value = -value
            }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
                var start = digits.count
                repeat {
                    start -= 1
                    digits[start] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                } while value > 0
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
            }
        } else {
            bytes.append(contentsOf: number.description.utf8)
        }
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t`… or `\u00XX`;
    /// everything else (slashes, non-ASCII) as it is.
    public mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    append("\\u00")
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                }
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
