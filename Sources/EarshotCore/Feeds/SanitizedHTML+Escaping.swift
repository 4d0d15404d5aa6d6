extension SanitizedHTML.Writer {
    // Escaping text and attribute values: `&`, `<`, `>` always, `"` in values; runs with nothing to
    // escape (most of the notes) copied whole.

    /// Bytes escaped in one step of `appendEscaped` (each may become six: `&quot;`).
    private static let escapeBlock = 256

    /// Copies runs that need no escaping in one go: notes are mostly such runs. A block at a time with
    /// room for all of it escaped where the writer has that room; where it has not (a writer made for
    /// one text), what comes before the first byte to escape is copied with exactly its room first
    /// (room for every block escaped was six times the text, and growing zeroes it: a writer for each
    /// of giantbomb's 730 descriptions cost the parse 5%).
    mutating func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>, quote: Bool) {
        var start = 0
        while start < buffer.count {
            let rest = UnsafeBufferPointer(rebasing: buffer[start...])
            if min(rest.count, Self.escapeBlock) * 6 <= roomLeft {
                // Room enough already (a writer that is reused, the sanitizer's): one pass.
                let block = UnsafeBufferPointer(rebasing: rest[..<min(rest.count, Self.escapeBlock)])
                write(atMost: block.count * 6) { Self.escape(block, quote: quote, to: $0) }
                start += block.count
                continue
            }
            let clean = Self.bytesBeforeEscapable(rest)
            if clean > 0 {
                write(atMost: clean) { target in
                    var target = target
                    Self.put(UnsafeBufferPointer(rebasing: rest[..<clean]), &target)
                    return target
                }
                start += clean
            }
            guard start < buffer.count else { return }
            let block = UnsafeBufferPointer(rebasing: buffer[start..<min(buffer.count, start + Self.escapeBlock)])
            write(atMost: block.count * 6) { Self.escape(block, quote: quote, to: $0) }
            start += block.count
        }
    }

    /// How many bytes come before the first `"`, `&`, `<` or `>` (all of them when there is none).
    private static func bytesBeforeEscapable(_ buffer: UnsafeBufferPointer<UInt8>) -> Int {
        nextEscapable(buffer, from: 0)
    }

    /// The index of the first `"`, `&`, `<` or `>` at or after `start`, or the count when there is
    /// none: eight bytes a step, then byte by byte.
    @inline(__always)
    private static func nextEscapable(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = buffer.baseAddress else { return buffer.count }
        var index = start
        while index + 8 <= buffer.count {
            let hits = ByteWord.escapable(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian)
            if hits != 0 { return index + hits.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < buffer.count {
            switch buffer[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): return index
            default: index += 1
            }
        }
        return index
    }

    static func escape(_ buffer: UnsafeBufferPointer<UInt8>, quote: Bool,
                               to start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var target = start
        var runStart = 0
        var index = 0
        let count = buffer.count
        while index < count {
            let at = nextEscapable(buffer, from: index)
            guard at < count else { break }
            index = at + 1
            let entity: StaticString
            switch buffer[at] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            default:
                guard quote else { continue }  // `"` in text
                entity = "&quot;"
            }
            if at > runStart { put(UnsafeBufferPointer(rebasing: buffer[runStart..<at]), &target) }
            put(entity, &target)
            runStart = index
        }
        if count > runStart { put(UnsafeBufferPointer(rebasing: buffer[runStart...]), &target) }
        return target
    }
}
