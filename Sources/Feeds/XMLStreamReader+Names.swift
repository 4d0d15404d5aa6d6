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
    private struct Key: Hashable {
        let namespace: UInt
        let name: UInt
    }

    private struct Entry {
        let element: FeedElement
        let name: [UInt8]
    }

    private var entries: [Key: Entry] = [:]

    /// Whether `name` spells the `length` bytes at `bytes` (one `memcmp`, not a byte loop).
    private static func same(_ name: [UInt8], _ bytes: UnsafePointer<xmlChar>, _ length: Int) -> Bool {
        name.count == length && name.withUnsafeBufferPointer { $0.baseAddress.map { memcmp($0, bytes, length) == 0 } ?? (length == 0) }
    }
    /// SAX reports an undeclared prefix apart from the local name; the pair is cached by both pointers.
    private var prefixed: [PrefixedKey: Entry] = [:]

    private struct PrefixedKey: Hashable {
        let prefix: UInt
        let name: UInt
    }

    /// The element for a SAX event's names. libxml2 interns them in the parser's dictionary; as in the
    /// reader variant, the local name is still checked byte for byte on every hit.
    mutating func element(localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
                          namespaceURI: UnsafePointer<xmlChar>?) -> FeedElement {
        let length = Int(xmlStrlen(localName))
        // A prefix without a namespace is an undeclared one ("itunes:duration" with no xmlns:itunes).
        if namespaceURI == nil, let prefix {
            let key = PrefixedKey(prefix: UInt(bitPattern: prefix), name: UInt(bitPattern: localName))
            if let entry = prefixed[key], Self.same(entry.name, localName, length) {
                return entry.element
            }
            let nameBytes = Array(UnsafeBufferPointer(start: localName, count: length))
            let element = FeedVocabulary.element(
                namespaceURI: nil, localName: String(cString: prefix) + ":" + String(decoding: nameBytes, as: UTF8.self))
            prefixed[key] = Entry(element: element, name: nameBytes)
            return element
        }
        let key = Key(namespace: UInt(bitPattern: namespaceURI), name: UInt(bitPattern: localName))
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
        let key = Key(namespace: UInt(bitPattern: namespace), name: UInt(bitPattern: name))
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
