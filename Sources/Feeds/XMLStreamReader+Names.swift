import CLibXML2
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Turns the current element's name into a `FeedElement` without building a String per element.
///
/// libxml2 interns names in the reader's dictionary, so one (namespace URI, local name) pointer pair stands
/// for one name for the whole parse: the cache classifies each pair once. The namespace URI comes from
/// `xmlTextReaderConstNamespaceUri`, which always interns; the local name is re-checked byte for byte on
/// every hit, so a name that was not interned (and whose memory could be reused) can never be misread.
struct NameCache {
    private struct Entry {
        let element: FeedElement
        let name: [UInt8]
    }

    /// (namespace URI, local name) pointers → entry.
    private var entries = PointerPairTable<Entry>()

    /// Whether `name` spells the `length` bytes at `bytes` (one `memcmp`, not a byte loop).
    private static func same(_ name: [UInt8], _ bytes: UnsafePointer<xmlChar>, _ length: Int) -> Bool {
        name.count == length && name.withUnsafeBufferPointer { $0.baseAddress.map { memcmp($0, bytes, length) == 0 } ?? (length == 0) }
    }
    /// SAX reports an undeclared prefix apart from the local name; the pair is cached by both pointers.
    private var prefixed = PointerPairTable<Entry>()

    /// The element for a SAX event's names. libxml2 interns them in the parser's dictionary; as in the
    /// reader variant, the local name is still checked byte for byte on every hit.
    mutating func element(localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
                          namespaceURI: UnsafePointer<xmlChar>?) -> FeedElement {
        let length = Int(xmlStrlen(localName))
        // A prefix without a namespace is an undeclared one ("itunes:duration" with no xmlns:itunes).
        if namespaceURI == nil, let prefix {
            let key = (UInt(bitPattern: prefix), UInt(bitPattern: localName))
            if let entry = prefixed[key], Self.same(entry.name, localName, length) {
                return entry.element
            }
            let nameBytes = Array(UnsafeBufferPointer(start: localName, count: length))
            let element = FeedVocabulary.element(
                namespaceURI: nil, localName: String(cString: prefix) + ":" + String(decoding: nameBytes, as: UTF8.self))
            prefixed[key] = Entry(element: element, name: nameBytes)
            return element
        }
        let key = (UInt(bitPattern: namespaceURI), UInt(bitPattern: localName))
        if let entry = entries[key], Self.same(entry.name, localName, length) {
            return entry.element
        }
        let nameBytes = Array(UnsafeBufferPointer(start: localName, count: length))
        let element = FeedVocabulary.element(namespaceURI: namespaceURI.map { String(cString: $0) },
                                             localName: String(decoding: nameBytes, as: UTF8.self))
        entries[key] = Entry(element: element, name: nameBytes)
        return element
    }

    mutating func element(_ reader: xmlTextReaderPtr) -> FeedElement {
        guard let name = xmlTextReaderConstLocalName(reader) else { return .unknown }
        let namespace = xmlTextReaderConstNamespaceUri(reader)
        let key = (UInt(bitPattern: namespace), UInt(bitPattern: name))
        let length = Int(xmlStrlen(name))
        if let entry = entries[key], Self.same(entry.name, name, length) {
            return entry.element
        }
        let nameBytes = Array(UnsafeBufferPointer(start: name, count: length))
        let element = FeedVocabulary.element(
            namespaceURI: namespace.map { String(cString: $0) },
            localName: String(decoding: nameBytes, as: UTF8.self))
        entries[key] = Entry(element: element, name: nameBytes)
        return element
    }
}

/// A small open-addressing table keyed by a pair of pointers: a feed has a few dozen element names and
/// looks one up per element, where `Dictionary`'s SipHash of the pair cost more than the rest of the lookup.
struct PointerPairTable<Value> {
    private var keys: [(UInt, UInt)] = Array(repeating: (0, 0), count: 64)
    private var values: [Value?] = Array(repeating: nil, count: 64)
    private var count = 0

    private static func slot(_ key: (UInt, UInt), mask: Int) -> Int {
        let mixed = (UInt64(key.0) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(key.1) &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }

    subscript(key: (UInt, UInt)) -> Value? {
        get {
            let mask = keys.count - 1
            var index = Self.slot(key, mask: mask)
            while values[index] != nil {
                if keys[index] == key { return values[index] }
                index = (index + 1) & mask
            }
            return nil
        }
        set {
            guard let newValue else { return }  // entries are never removed
            if (count + 1) * 2 > keys.count { grow() }
            let mask = keys.count - 1
            var index = Self.slot(key, mask: mask)
            while values[index] != nil, keys[index] != key { index = (index + 1) & mask }
            if values[index] == nil { count += 1 }
            keys[index] = key
            values[index] = newValue
        }
    }

    private mutating func grow() {
        let old = zip(keys, values)
        keys = Array(repeating: (0, 0), count: keys.count * 2)
        values = Array(repeating: nil, count: keys.count)
        count = 0
        for (key, value) in old { if let value { self[key] = value } }
    }
}
