extension SanitizedHTML.Writer {
    // Packed markup: tags of up to sixteen bytes stored whole with two stores, and the tags with
    // attribute values the sanitizer writes most (links, images) in one write.

    /// Whether `value` reads as an escaped attribute value: no `"`, `<` or `>`, every `&` an `&amp;`.
    static func isWrittenEscaped(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        for (index, byte) in value.enumerated() {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"): return false
            case UInt8(ascii: "&"): if !value[index...].starts(with: "&amp;".utf8) { return false }
            default: continue
            }
        }
        return true
    }

    /// Markup of up to sixteen bytes, given as two words (first byte lowest): a kept element's start or
    /// end tag made once (`Markup`), written with two stores rather than byte by byte. The caller
    /// vouches that it is markup this writer would write (`<p>`, `</li>`).
    public mutating func markup(_ markup: Markup) {
        write(atMost: 16) { Self.put(markup, $0) }
    }

    /// A tag with its attribute value: markup, a value, markup (`<a href="`, the address, `">`), in one
    /// write. The value is escaped unless `escaping` is false: the caller vouches it is written escaped
    /// already (no `"`, `<` or `>`, `&` only as `&amp;`).
    public mutating func markup(_ start: Markup, _ value: UnsafeBufferPointer<UInt8>, escaping: Bool, _ end: Markup) {
        markup(start, value, escaping: escaping, nil, nil, escapingSecond: false, end)
    }

    /// `markup(_:_:escaping:_:)` with a second value after `middle`.
    public mutating func markup(_ start: Markup, _ value: UnsafeBufferPointer<UInt8>, escaping: Bool,
                                _ middle: Markup?, _ second: UnsafeBufferPointer<UInt8>?,
                                escapingSecond: Bool, _ end: Markup) {
        let secondCount = second?.count ?? 0
        guard value.count <= Self.smallValue, secondCount <= Self.smallValue else {
            // Long values: each part a write of its own (room for a value escaped is six times it).
            markup(start)
            escaping ? appendEscaped(value, quote: true) : write(atMost: value.count) { Self.put(value, $0) }
            if let middle, let second {
                markup(middle)
                escapingSecond ? appendEscaped(second, quote: true) : write(atMost: second.count) { Self.put(second, $0) }
            }
            markup(end)
            return
        }
        let room = 48 + (escaping ? value.count * 6 : value.count) + (escapingSecond ? secondCount * 6 : secondCount)
        write(atMost: room) { target in
            var target = Self.put(start, target)
            target = Self.put(value, escaping: escaping, target)
            if let middle, let second {
                target = Self.put(second, escaping: escapingSecond, Self.put(middle, target))
            }
            return Self.put(end, target)
        }
    }

    /// Stores `markup` with two stores (sixteen bytes of room) and returns the pointer past its bytes.
    @inline(__always)
    private static func put(_ markup: Markup, _ target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        UnsafeMutableRawPointer(target).storeBytes(of: markup.low.littleEndian, as: UInt64.self)
        UnsafeMutableRawPointer(target + 8).storeBytes(of: markup.high.littleEndian, as: UInt64.self)
        return target + markup.count
    }

    /// Puts `value`, escaped unless `escaping` is false (then it must be written escaped already).
    @inline(__always)
    private static func put(_ value: UnsafeBufferPointer<UInt8>, escaping: Bool,
                            _ target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if escaping { return escape(value, quote: true, to: target) }
        assert(isWrittenEscaped(value))
        var target = target
        put(value, &target)
        return target
    }

    @inline(__always)
    private static func put(_ value: UnsafeBufferPointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var target = target
        put(value, &target)
        return target
    }

    /// A tag of up to sixteen bytes packed into two words, for `markup(_:)`.
    public struct Markup: Sendable {
        public let low: UInt64
        public let high: UInt64
        public let count: Int

        /// Bytes already packed, first byte lowest (constants: a test holds each to its text).
        public init(low: UInt64, high: UInt64, count: Int) {
            (self.low, self.high, self.count) = (low, high, count)
        }

        /// The markup's text.
        public var text: String {
            var bytes: [UInt8] = []
            for offset in 0..<count {
                let word = offset < 8 ? low : high
                bytes.append(UInt8(truncatingIfNeeded: word >> (8 * UInt64(offset % 8))))
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// `<tag>`, or `</tag>` when `closing` (a name of up to thirteen bytes).
        public init(_ tag: StaticString, closing: Bool = false) {
            self.init(text: (closing ? "</" : "<") + tag.description + ">")
        }

        /// Markup of up to sixteen bytes, packed.
        public init(text: String) {
            let bytes = Array(text.utf8)
            precondition(bytes.count <= 16, "markup too long to pack: \(text)")
            var low: UInt64 = 0, high: UInt64 = 0
            for (offset, byte) in bytes.enumerated() {
                if offset < 8 { low |= UInt64(byte) << (8 * UInt64(offset)) } else { high |= UInt64(byte) << (8 * UInt64(offset - 8)) }
            }
            (self.low, self.high, count) = (low, high, bytes.count)
        }
    }
}
