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
        let localString = String(decoding: nameBytes, as: UTF8.self)
        let element = namespaceURI.map { FeedVocabulary.element(in: namespace($0), localName: localString) }
            ?? FeedVocabulary.element(namespaceURI: nil, localName: localString)
        entries[key] = Entry(element: element, name: nameBytes)
        return element
    }

    private struct NamespaceEntry {
        let namespace: FeedNamespace
        let uri: [UInt8]
    }

    /// Namespace URI pointer → its namespace: a feed declares a few and names dozens of elements in each,
    /// so each URI is classified once a parse (checked byte for byte on every hit, as names are).
    private var namespaces = PointerPairTable<NamespaceEntry>()

    private mutating func namespace(_ uri: UnsafePointer<xmlChar>) -> FeedNamespace {
        let length = Int(xmlStrlen(uri))
        let key = (UInt(bitPattern: uri), UInt(0))
        if let entry = namespaces[key], Self.same(entry.uri, uri, length) { return entry.namespace }
        let bytes = Array(UnsafeBufferPointer(start: uri, count: length))
        let namespace = FeedVocabulary.namespace(uri: String(decoding: bytes, as: UTF8.self))
        namespaces[key] = NamespaceEntry(namespace: namespace, uri: bytes)
        return namespace
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
///
/// The slots hold indexes into dense arrays of keys and values: a table made and dropped for every parse
/// then creates and destroys only the entries it holds (a slot array of optional values cost 19,000
/// instructions a parse to tear down, a fifth of a small feed's parse).
struct PointerPairTable<Value> {
    private var slots: [Int32] = Array(repeating: -1, count: 64)
    private var keys: [(UInt, UInt)] = []
    private var values: [Value] = []

    private static func slot(_ key: (UInt, UInt), mask: Int) -> Int {
        let mixed = (UInt64(key.0) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(key.1) &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }

    /// The slot holding `key`, or the empty slot where it would go.
    private func find(_ key: (UInt, UInt)) -> Int {
        let mask = slots.count - 1
        var index = Self.slot(key, mask: mask)
        while slots[index] >= 0, keys[Int(slots[index])] != key { index = (index + 1) & mask }
        return index
    }

    subscript(key: (UInt, UInt)) -> Value? {
        get {
            let entry = slots[find(key)]
            return entry >= 0 ? values[Int(entry)] : nil
        }
        set {
            guard let newValue else { return }  // entries are never removed
            let index = find(key)
            if slots[index] >= 0 {
                values[Int(slots[index])] = newValue
                return
            }
            slots[index] = Int32(keys.count)
            if keys.isEmpty {  // one allocation each for a feed's few dozen names
                keys.reserveCapacity(32)
                values.reserveCapacity(32)
            }
            keys.append(key)
            values.append(newValue)
            if keys.count * 2 > slots.count { grow() }
        }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (entry, key) in keys.enumerated() {
            var index = Self.slot(key, mask: mask)
            while slots[index] >= 0 { index = (index + 1) & mask }
            slots[index] = Int32(entry)
        }
    }
}
