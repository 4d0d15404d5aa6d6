import CLibXML2
#if canImport(Glibc)
import Glibc
#endif

/// The element of a start or end event: libxml2's pointers (or `XMLFastScan`'s, laid out as libxml2's),
/// read where they stand. One of the libxml2 wrapper files.
extension XMLEventStream {
    /// The element a start or end event is about.
    struct Element {
        let localName: UnsafePointer<xmlChar>
        let prefix: UnsafePointer<xmlChar>?
        let namespaceURI: UnsafePointer<xmlChar>?
        let attributeCount: Int
        /// libxml2's attribute array: five pointers each (local name, prefix, URI, value, value end).
        let attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?

        /// An element as libxml2 reports one (`XMLFastScan` makes them too): NUL-terminated names, valid
        /// during the event (`XMLFastScan`'s for the whole parse).
        init(localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, namespaceURI: UnsafePointer<xmlChar>?,
             attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
            (self.localName, self.prefix, self.namespaceURI) = (localName, prefix, namespaceURI)
            (self.attributeCount, self.attributes) = (attributeCount, attributes)
        }

        /// The value of attribute `name` ("url", or "xml:base" with its prefix), or nil when absent.
        func attribute(_ name: StaticString) -> String? {
            guard let attributes, attributeCount > 0 else { return nil }
            return WantedAttribute.with(name) { wanted -> String? in
                for index in 0..<attributeCount {
                    let entry = attributes + 5 * index
                    guard let local = entry[0], let value = entry[3], let end = entry[4],
                          wanted.matches(localName: local, prefix: entry[1], spells: Self.equal) else { continue }
                    return Self.attributeValue(UnsafeBufferPointer(start: value, count: end - value))
                }
                return nil
            }
        }

        func forEachUnprefixedAttribute(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) {
            guard let attributes else { return }
            for index in 0..<attributeCount {
                let entry = attributes + 5 * index
                guard let local = entry[0], entry[1] == nil, let value = entry[3], let end = entry[4] else { continue }
                body(UnsafeBufferPointer(start: local, count: Int(xmlStrlen(local))), UnsafeBufferPointer(start: value, count: end - value))
            }
        }

        /// An attribute's value as libxml2 hands it over, as text.
        static func attributeValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            // Without entity substitution, libxml2 hands every "&" of a value over as "&#38;" (so a
            // tree builder could re-read it); no other "&" can be there.
            guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
            return replacingEscapedAmpersands(bytes)
        }

        /// Appends the element to a `FeedTape`: its prefix (length + 1, 0 for none) and local name, then,
        /// `withAttributes`, their count and each one's prefix, local name and value as libxml2 gave them.
        func record(into tape: inout TapeWriter, withAttributes: Bool) {
            if let prefix {
                tape.appendField(prefix, count: Int(xmlStrlen(prefix)), marked: true)
            } else {
                tape.appendLength(0)
            }
            tape.appendField(localName, count: Int(xmlStrlen(localName)))
            guard withAttributes else { return }
            let countAt = tape.count
            tape.appendLength(0)
            guard let attributes else { return }
            var kept = 0
            for index in 0..<attributeCount {
                let entry = attributes + 5 * index
                guard let local = entry[0], let value = entry[3], let end = entry[4] else { continue }
                if let prefix = entry[1] {
                    tape.appendField(prefix, count: Int(xmlStrlen(prefix)), marked: true)
                } else {
                    tape.appendLength(0)
                }
                tape.appendField(local, count: Int(xmlStrlen(local)))
                tape.appendField(value, count: end - value)
                kept += 1
            }
            tape.setLength(kept, at: countAt)
        }

        /// `bytes` as a string with each "&#38;" read as "&" (on bytes: `String.replacing` walks characters,
        /// and links full of query parameters made it a hot spot).
        static func replacingEscapedAmpersands(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            // Runs between ampersands copied whole, straight into the string (a payment link's query of a
            // kilobyte and more went a byte at a time into an array, then into the string).
            String(unsafeUninitializedCapacity: bytes.count) { out in
                guard let target = out.baseAddress, let source = bytes.baseAddress else { return 0 }
                var written = 0, index = 0
                while index < bytes.count {
                    let ampersand = bytes.nextIndex(of: UInt8(ascii: "&"), from: index) ?? bytes.count
                    (target + written).update(from: source + index, count: ampersand - index)
                    written += ampersand - index
                    index = ampersand
                    guard index < bytes.count else { break }
                    target[written] = UInt8(ascii: "&")
                    written += 1
                    let escaped = index + 5 <= bytes.count && bytes[index + 1] == UInt8(ascii: "#")
                        && bytes[index + 2] == UInt8(ascii: "3") && bytes[index + 3] == UInt8(ascii: "8")
                        && bytes[index + 4] == UInt8(ascii: ";")
                    index += escaped ? 5 : 1
                }
                return written
            }
        }

        /// Everything the element carries, as text: its name, namespace and attributes (each with its
        /// prefix, namespace and value as handed over). For holding two readers to the same events.
        var summary: String {
            func text(_ pointer: UnsafePointer<xmlChar>?) -> String { pointer.map { String(cString: $0) } ?? "-" }
            var parts = ["\(text(prefix)):\(text(localName)) {\(text(namespaceURI))}"]
            for index in 0..<(attributes == nil ? 0 : attributeCount) {
                let entry = attributes! + 5 * index
                let value = entry[3].map { start in
                    String(decoding: UnsafeBufferPointer(start: start, count: entry[4]! - start), as: UTF8.self)
                } ?? "-"
                parts.append("\(text(entry[1])):\(text(entry[0])) {\(text(entry[2]))}=\(value.debugDescription)")
            }
            return parts.joined(separator: " ")
        }

        /// The name as written ("itunes:image"), for messages.
        var qualifiedName: String {
            let local = String(cString: localName)
            return prefix.map { String(cString: $0) + ":" + local } ?? local
        }

        /// Appends the local name (to rebuild inline XHTML as markup text).
        func appendLocalName(to buffer: inout [UInt8]) {
            buffer.append(contentsOf: UnsafeBufferPointer(start: localName, count: Int(xmlStrlen(localName))))
        }

        /// Whether the NUL-terminated `string` spells exactly `expected`.
        static func equal(_ string: UnsafePointer<xmlChar>, _ expected: UnsafeBufferPointer<UInt8>) -> Bool {
            var index = 0
            for byte in expected {
                guard string[index] == byte else { return false }
                index += 1
            }
            return string[index] == 0
        }
    }
}
