extension SanitizedHTML {
    /// Writes sanitized notes as HTML, an element at a time (`open`/`close`) or from a tree (`write`).
    /// Escapes text and attribute values; knows nothing of which elements are allowed (its callers do).
    public struct Writer {
        public private(set) var bytes: [UInt8] = []

        public init() {}

        /// Takes `buffer` over to write into, emptied but keeping its capacity (a swap, so the buffer is
        /// never shared and never copied); `takeBuffer` gives it back.
        public mutating func reuse(_ buffer: inout [UInt8]) {
            swap(&bytes, &buffer)
            bytes.removeAll(keepingCapacity: true)
        }

        /// The buffer, for the next writer to reuse; this writer is left empty.
        public mutating func takeBuffer() -> [UInt8] {
            var taken: [UInt8] = []
            swap(&taken, &bytes)
            return taken
        }

        /// Elements written without content or an end tag.
        public static func isVoid(_ tag: String) -> Bool { tag == "br" || tag == "img" }

        /// `<tag a="v" …>`, attributes in name order (the same notes always give the same string).
        public mutating func open(_ tag: String, attributes: [String: String] = [:]) {
            open(tag, sortedAttributes: attributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }

        /// `<tag a="v" …>` with the attributes already in name order.
        public mutating func open(_ tag: String, sortedAttributes: [(name: String, value: String)]) {
            bytes.append(UInt8(ascii: "<"))
            append(tag)
            for (name, value) in sortedAttributes { attribute(name, value) }
            bytes.append(UInt8(ascii: ">"))
        }

        /// `<tag>`. (The sanitizer's overloads take no array: it opens a quarter of a million tags on a
        /// large feed.)
        public mutating func open(_ tag: String) {
            bytes.append(UInt8(ascii: "<"))
            append(tag)
            bytes.append(UInt8(ascii: ">"))
        }

        /// `<tag>`, the name given as a literal (the sanitizer's element names: no `String` to unpack).
        public mutating func open(_ tag: StaticString) {
            bytes.append(UInt8(ascii: "<"))
            tag.withUTF8Buffer { appendBytes($0) }
            bytes.append(UInt8(ascii: ">"))
        }

        /// `<tag name="value">` with the value as UTF-8 bytes (a link's address, straight from the notes).
        /// `escaping: false`: the caller has made sure the value holds no `"`, `&`, `<` or `>`.
        public mutating func open(_ tag: StaticString, _ name: StaticString, _ value: UnsafeBufferPointer<UInt8>,
                                  escaping: Bool = true) {
            bytes.append(UInt8(ascii: "<"))
            tag.withUTF8Buffer { appendBytes($0) }
            attribute(name, value, escaping: escaping)
            bytes.append(UInt8(ascii: ">"))
        }

        /// `<tag name="value" name2="value2">` with the values as UTF-8 bytes, `name` before `name2` in
        /// name order.
        /// `escaping: false`: the caller has made sure `value2` holds no `"`, `&`, `<` or `>`.
        public mutating func open(_ tag: StaticString, _ name: StaticString, _ value: UnsafeBufferPointer<UInt8>,
                                  _ name2: StaticString, _ value2: UnsafeBufferPointer<UInt8>, escaping: Bool = true) {
            bytes.append(UInt8(ascii: "<"))
            tag.withUTF8Buffer { appendBytes($0) }
            attribute(name, value)
            attribute(name2, value2, escaping: escaping)
            bytes.append(UInt8(ascii: ">"))
        }

        /// `</tag>`, the name given as a literal.
        public mutating func close(_ tag: StaticString) {
            bytes.append(UInt8(ascii: "<"))
            bytes.append(UInt8(ascii: "/"))
            tag.withUTF8Buffer { appendBytes($0) }
            bytes.append(UInt8(ascii: ">"))
        }

        private mutating func attribute(_ name: StaticString, _ value: UnsafeBufferPointer<UInt8>, escaping: Bool = true) {
            bytes.append(0x20)
            name.withUTF8Buffer { appendBytes($0) }
            bytes.append(UInt8(ascii: "="))
            bytes.append(UInt8(ascii: "\""))
            if escaping {
                appendEscaped(buffer: value, quote: true)
            } else {
                assert(!value.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") })
                appendBytes(value)
            }
            bytes.append(UInt8(ascii: "\""))
        }

        private mutating func attribute(_ name: String, _ value: String) {
            bytes.append(0x20)
            append(name)
            bytes.append(UInt8(ascii: "="))
            bytes.append(UInt8(ascii: "\""))
            var value = value
            value.withUTF8 { appendEscaped(buffer: $0, quote: true) }
            bytes.append(UInt8(ascii: "\""))
        }

        public mutating func close(_ tag: String) {
            bytes.append(UInt8(ascii: "<"))
            bytes.append(UInt8(ascii: "/"))
            append(tag)
            bytes.append(UInt8(ascii: ">"))
        }

        /// Appends `source`: a few bytes one at a time (a tag or attribute name, an entity, a word: each
        /// `append(contentsOf:)` cost a hundred-odd instructions of set-up, more than the bytes it
        /// copied), longer runs in one copy.
        @inline(__always)
        private mutating func appendBytes(_ source: UnsafeBufferPointer<UInt8>) {
            if source.count <= 8 {
                for byte in source { bytes.append(byte) }
            } else {
                bytes.append(contentsOf: source)
            }
        }

        /// A name's bytes as they are (a copy of contiguous UTF-8, not a walk over `String.UTF8View`).
        private mutating func append(_ name: String) {
            var name = name
            name.withUTF8 { bytes.append(contentsOf: $0) }
        }

        /// Text (UTF-8), escaped. (Concrete, not generic over sequences: a generic public method called
        /// from another module runs unspecialized, through witness tables, byte by byte.)
        public mutating func text(_ text: [UInt8]) {
            text.withUnsafeBufferPointer { appendEscaped(buffer: $0, quote: false) }
        }

        /// Text (UTF-8), escaped.
        public mutating func text(_ text: UnsafeBufferPointer<UInt8>) {
            appendEscaped(buffer: text, quote: false)
        }

        /// Text (UTF-8) that holds no `&`, `<` or `>`: the sanitizer's runs of ordinary bytes, which it
        /// has already looked at one by one, copied without a second look.
        public mutating func text(escaped text: UnsafeBufferPointer<UInt8>) {
            assert(!text.contains { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") })
            appendBytes(text)
        }

        /// One byte of text (UTF-8), escaped.
        public mutating func text(byte: UInt8) {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            default: bytes.append(byte)
            }
        }

        /// Text, escaped.
        public mutating func text(_ text: String) {
            var text = text
            text.withUTF8 { appendEscaped(buffer: $0, quote: false) }
        }

        public mutating func write(_ node: RichText) {
            switch node {
            case .text(let text):
                self.text(text)
            case .element(let tag, let attributes, let children):
                open(tag, attributes: attributes)
                guard !Self.isVoid(tag) else { return }
                for child in children { write(child) }
                close(tag)
            }
        }

        /// Drops what was written from `offset` on (an element that stayed empty).
        public mutating func truncate(to offset: Int) {
            bytes.removeLast(bytes.count - offset)
        }

        /// Whether the bytes end with `<br>` after `offset`.
        public func endsWithBreak(after offset: Int) -> Bool {
            let count = bytes.count
            return count - 4 >= offset && bytes[count - 4] == UInt8(ascii: "<") && bytes[count - 3] == UInt8(ascii: "b")
                && bytes[count - 2] == UInt8(ascii: "r") && bytes[count - 1] == UInt8(ascii: ">")
        }

        public func finish() -> String { String(decoding: bytes, as: UTF8.self) }

        /// Copies runs that need no escaping in one go: notes are mostly such runs. Eight bytes a step;
        /// a word holding a byte to escape goes on from that byte (its place read from the mask), not a
        /// byte at a time.
        private mutating func appendEscaped(buffer: UnsafeBufferPointer<UInt8>, quote: Bool) {
            var runStart = 0
            var index = 0
            let count = buffer.count
            while index < count {
                var at = index
                if let base = buffer.baseAddress, index + 8 <= count {
                    let hits = ByteWord.escapable(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian)
                    if hits == 0 {
                        index += 8
                        continue
                    }
                    at = index + hits.trailingZeroBitCount >> 3
                }
                let byte = buffer[at]
                index = at + 1
                let entity: StaticString
                switch byte {
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                case UInt8(ascii: "\"") where quote: entity = "&quot;"
                default: continue
                }
                if at > runStart { appendBytes(UnsafeBufferPointer(rebasing: buffer[runStart..<at])) }
                entity.withUTF8Buffer { appendBytes($0) }
                runStart = index
            }
            if count > runStart { appendBytes(UnsafeBufferPointer(rebasing: buffer[runStart...])) }
        }
    }
}
