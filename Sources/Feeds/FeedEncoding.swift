import EarshotCore

/// Repairs for the encoding mistakes real feeds make, applied only after libxml2 refused the bytes.
enum FeedEncoding {
    /// A copy of a document with its invalid bytes made readable, and the warning that says so.
    struct Repair {
        var bytes: [UInt8]
        var warning: String
    }

    /// Whether the document's encoding keeps ASCII bytes as they are (UTF-8, Latin-1, Windows-125x, …),
    /// so bytes can be repaired one by one: no UTF-16 or UTF-32 byte order mark, no NUL in the first
    /// bytes, no such encoding declared.
    static func isASCIICompatible(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            return false
        }
        if bytes.prefix(4).contains(0) { return false }
        guard let declared = declaredEncoding(bytes)?.lowercased() else { return true }
        return !(declared.hasPrefix("utf-16") || declared.hasPrefix("utf-32") || declared.hasPrefix("ucs")
            || declared.hasPrefix("ebcdic") || declared.hasPrefix("ibm"))
    }

    /// The `encoding` of the XML declaration, if there is one.
    static func declaredEncoding(_ bytes: UnsafeRawBufferPointer) -> String? {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        let head = String(decoding: bytes[start..<min(bytes.count, start + 256)], as: UTF8.self)
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>"),
              let key = head[..<end.lowerBound].range(of: "encoding") else { return nil }
        let rest = head[key.upperBound..<end.lowerBound].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// The document with every byte that is not part of valid UTF-8 read as Windows-1252 (a superset of
    /// Latin-1 in practice: the usual mislabelled feed), and the C0 control characters XML forbids (all
    /// but tab, line feed and carriage return) dropped. Nil when there was nothing to repair.
    ///
    /// A document declared in another single-byte encoding only has its control characters dropped.
    static func repaired(_ bytes: UnsafeRawBufferPointer) -> Repair? {
        let declared = declaredEncoding(bytes)?.lowercased()
        let isUTF8 = declared == nil || declared == "utf-8" || declared == "utf8"
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 16)
        var reread = 0
        var dropped = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 {
                if byte == 0x09 || byte == 0x0A || byte == 0x0D { out.append(byte) } else { dropped += 1 }
                index += 1
            } else if byte < 0x80 || !isUTF8 {
                out.append(byte)
                index += 1
            } else if let length = validSequenceLength(bytes, at: index) {
                out.append(contentsOf: bytes[index..<index + length])
                index += length
            } else {
                appendUTF8(windows1252(byte), to: &out)
                reread += 1
                index += 1
            }
        }
        guard reread + dropped > 0 else { return nil }
        var sentences: [String] = []
        if reread > 0 {
            sentences.append("The feed is not valid UTF-8: \(reread) byte\(reread == 1 ? " was" : "s were") read as Windows-1252.")
        }
        if dropped > 0 {
            sentences.append("\(dropped) control character\(dropped == 1 ? "" : "s") that XML forbids \(dropped == 1 ? "was" : "were") removed.")
        }
        return Repair(bytes: out, warning: sentences.joined(separator: " "))
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or nil.
    static func validSequenceLength(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int? {
        UTF8Check.validSequenceLength(bytes, at: index)
    }

    /// What a Windows-1252 byte stands for; the five bytes it leaves undefined become U+FFFD.
    static func windows1252(_ byte: UInt8) -> UInt32 {
        guard byte >= 0x80, byte < 0xA0 else { return UInt32(byte) }
        let value = highControls[Int(byte - 0x80)]
        return value == 0 ? 0xFFFD : UInt32(value)
    }

    /// Windows-1252's 0x80–0x9F (0 where undefined); HTML's numeric references use the same table.
    static let highControls: [UInt16] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    static func appendUTF8(_ value: UInt32, to out: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        out.append(contentsOf: UTF8.encode(scalar)!)
    }

    /// Whether the document opens like a web page: `<!doctype html` or `<html` in its first kilobyte,
    /// before any `<rss`, `<feed` or `<rdf`.
    static func looksLikeHTML(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let start = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
        guard let html = start.range(of: "<!doctype html") ?? start.range(of: "<html") else { return false }
        let feed = ["<rss", "<feed", "<rdf"].compactMap { start.range(of: $0)?.lowerBound }.min()
        return feed.map { html.lowerBound < $0 } ?? true
    }
}
