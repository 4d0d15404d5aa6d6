/// Reads what `SanitizedHTML.Writer` wrote back into a `RichText` tree.
///
/// Not an HTML parser: it knows the writer's few shapes (`<tag name="value">`, `</tag>`, the void
/// `br` and `img`, text with `&amp;`, `&lt;`, `&gt;`, `&quot;`). Whatever else it meets is read as
/// text, and an end tag that closes nothing open is dropped, so no input can make it fail or build
/// an element the writer could not have written.
struct SanitizedHTMLReader {
    let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var stack: [(tag: String, attributes: [String: String], children: [RichText])] = [("", [:], [])]
    private var text: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func read() -> [RichText] {
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), tag() { continue }
            let start = index
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
            Self.unescape(UnsafeBufferPointer(rebasing: bytes[start..<index]), into: &text)
        }
        flushText()
        while stack.count > 1 { closeTop() }
        return stack[0].children
    }

    /// Reads a start or end tag at `index`; false (nothing consumed) when the bytes are not one.
    private mutating func tag() -> Bool {
        var cursor = index + 1
        let closing = cursor < bytes.count && bytes[cursor] == UInt8(ascii: "/")
        if closing { cursor += 1 }
        guard let (name, afterName) = self.name(from: cursor) else { return false }
        cursor = afterName
        var attributes: [String: String] = [:]
        if closing {
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ">") else { return false }
            index = cursor + 1
            flushText()
            if let depth = stack.lastIndex(where: { $0.tag == name }), depth > 0 {
                while stack.count > depth { closeTop() }
            }
            return true
        }
        while cursor < bytes.count, bytes[cursor] == 0x20 {
            guard let (attribute, afterAttribute) = self.name(from: cursor + 1),
                  afterAttribute + 1 < bytes.count, bytes[afterAttribute] == UInt8(ascii: "="),
                  bytes[afterAttribute + 1] == UInt8(ascii: "\"") else { return false }
            var end = afterAttribute + 2
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
            guard end < bytes.count else { return false }
            var value: [UInt8] = []
            Self.unescape(UnsafeBufferPointer(rebasing: bytes[(afterAttribute + 2)..<end]), into: &value)
            attributes[attribute] = String(decoding: value, as: UTF8.self)
            cursor = end + 1
        }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ">") else { return false }
        index = cursor + 1
        flushText()
        if SanitizedHTML.Writer.isVoid(name) {
            stack[stack.count - 1].children.append(.element(name, attributes: attributes, children: []))
        } else {
            stack.append((name, attributes, []))
        }
        return true
    }

    /// A lowercase name (letters and digits, as `h1`) at `start`, and where it ends.
    private func name(from start: Int) -> (String, Int)? {
        var end = start
        while end < bytes.count, (bytes[end] >= 0x61 && bytes[end] <= 0x7A) || (bytes[end] >= 0x30 && bytes[end] <= 0x39) {
            end += 1
        }
        guard end > start else { return nil }
        return (String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self), end)
    }

    private mutating func closeTop() {
        flushText()
        let open = stack.removeLast()
        stack[stack.count - 1].children.append(.element(open.tag, attributes: open.attributes, children: open.children))
    }

    private mutating func flushText() {
        guard !text.isEmpty else { return }
        stack[stack.count - 1].children.append(.text(String(decoding: text, as: UTF8.self)))
        text.removeAll(keepingCapacity: true)
    }

    /// Appends `escaped` with the writer's four entities decoded (any other `&` stays as it is).
    static func unescape(_ escaped: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var cursor = 0
        while cursor < escaped.count {
            let byte = escaped[cursor]
            if byte == UInt8(ascii: "&"), let (entity, value) = entities.first(where: { matches($0.0, in: escaped, at: cursor) }) {
                out.append(value)
                cursor += entity.utf8CodeUnitCount
            } else {
                out.append(byte)
                cursor += 1
            }
        }
    }

    private static func matches(_ literal: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        literal.withUTF8Buffer { pattern in
            guard position + pattern.count <= bytes.count else { return false }
            for offset in 0..<pattern.count where bytes[position + offset] != pattern[offset] { return false }
            return true
        }
    }

    private static let entities: [(StaticString, UInt8)] = [
        ("&amp;", UInt8(ascii: "&")), ("&lt;", UInt8(ascii: "<")), ("&gt;", UInt8(ascii: ">")), ("&quot;", UInt8(ascii: "\"")),
    ]
}
